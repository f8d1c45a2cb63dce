import { defineConfig, mergeConfig } from "vitest/config";

/**
 * Shared test settings: a JSON report per package (summed by scripts/test-all.mjs), and generous
 * timeouts because integration tests start real servers and processes: under a full `npm test` on
 * 2 cores the slowest default-timeout test took 67 s, so the limits stay well above that.
 * `mongo: true` runs the suite against one MongoDB: MONGODB_URI, or a test server started for the run.
 */
export function defineTestConfig({ mongo = false, ...overrides } = {}) {
  return mergeConfig(
    defineConfig({
      test: {
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        reporters: ["default", "json"],
        outputFile: { json: ".reports/vitest.json" },
        testTimeout: 180_000,
        hookTimeout: 240_000,
        pool: "forks",
        globalSetup: mongo ? ["@switchboard/test-mongo/global-setup"] : [],
      },
    }),
    overrides,
  );
}
