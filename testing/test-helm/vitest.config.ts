import { defineTestConfig } from "@switchboard/vitest-config";

// Build helm once before any test file runs: a cold `go install` takes minutes, longer than a hook timeout.
export default defineTestConfig({ test: { globalSetup: ["./src/global-setup.ts"] } });
