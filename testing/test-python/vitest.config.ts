import { defineTestConfig } from "@switchboard/vitest-config";

// Build the virtualenv once before any test file runs: a cold install takes longer than a hook timeout.
export default defineTestConfig({ test: { globalSetup: ["./src/global-setup.ts"] } });
