import { defineTestConfig } from "@switchboard/vitest-config";

// The interop tests run CAIPE's own Python agents: their venvs are built once, before any test file
// (a cold build outlasts a hook timeout).
export default defineTestConfig({
  mongo: true,
  test: { globalSetup: ["@switchboard-testing/test-caipe/global-setup"], hookTimeout: 600_000 },
});
