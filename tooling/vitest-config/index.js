import { defineConfig, mergeConfig } from "vitest/config";

/**
 * Shared test settings: a JSON report per package (summed by scripts/test-all.mjs), and generous
 * timeouts because integration tests start real servers and processes: on 2 cores the slowest
 * default-timeout test took 19 s in a full `npm test`, and 67 s at turbo's default 10 tasks at once.
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
        globalSetup: mongo ? ["@switchboard-testing/test-mongo/global-setup"] : [],
      },
    }),
    overrides,
  );
}
