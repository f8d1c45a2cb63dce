import { defineTestConfig } from "@switchboard/vitest-config";

// The TCK's virtualenv is built once before the test file runs: a cold install outlasts a hook timeout.
export default defineTestConfig({ test: { globalSetup: ["./src/global-setup.ts"] } });
