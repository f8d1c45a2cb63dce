import { defineTestConfig } from "@switchboard/vitest-config";

// CAIPE's venvs are built once before any test file (a cold build outlasts a hook timeout); the
// fleets share one MongoDB. Python processes start slowly on 2 cores: give tests room.
export default defineTestConfig({
  mongo: true,
  test: { globalSetup: ["./src/global-setup.ts"], testTimeout: 300_000, hookTimeout: 600_000 },
});
