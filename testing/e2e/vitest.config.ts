import { defineTestConfig } from "@switchboard/vitest-config";

// Whole fleets start and stop here, twice in one test: give them room on a loaded 2-core machine.
export default defineTestConfig({ mongo: true, test: { testTimeout: 180_000 } });
