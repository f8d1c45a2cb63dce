import { defineTestConfig } from "@switchboard/vitest-config";

// test/compare.int.test.ts starts two fleets one after the other (the harness's --compare) in its beforeAll.
export default defineTestConfig({ test: { testTimeout: 120_000, hookTimeout: 180_000 } });
