import { defineTestConfig } from "@switchboard/vitest-config";

// Interop tests run CAIPE's Python a2a-sdk: build its virtualenv once, before any test file runs.
export default defineTestConfig({
  mongo: true,
  test: { globalSetup: ["@switchboard-testing/test-python/global-setup"] },
});
