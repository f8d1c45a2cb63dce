import { defineTestConfig } from "@switchboard/vitest-config";

// moto runs from the repo's Python virtualenv: build or check it once before any test file starts.
export default defineTestConfig({
  mongo: true,
  test: { globalSetup: ["@switchboard-testing/test-python/global-setup"] },
});
