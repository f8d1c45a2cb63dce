import { defineTestConfig } from "@switchboard/vitest-config";

// Whole fleets and a browser on a loaded 2-core machine: room for both, one file at a time.
export default defineTestConfig({
  mongo: true,
  test: { globalSetup: ["./src/global-setup.ts"], testTimeout: 180_000, fileParallelism: false },
});
