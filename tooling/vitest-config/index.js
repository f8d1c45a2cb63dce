import { defineConfig, mergeConfig } from "vitest/config";

/**
 * Shared test settings: a JSON report per package (summed by scripts/test-all.mjs), and generous
 * timeouts because integration tests start real servers and processes.
 * `mongo: true` runs the suite against one MongoDB: MONGODB_URI, or a test server started for the run.
 */
export function defineTestConfig({ mongo = false, ...overrides } = {}) {
  return mergeConfig(
    defineConfig({
      test: {
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        reporters: ["default", "json"],
        outputFile: { json: ".reports/vitest.json" },
        testTimeout: 90_000,
        hookTimeout: 120_000,
        pool: "forks",
        globalSetup: mongo ? ["@switchboard/test-mongo/global-setup"] : [],
      },
    }),
    overrides,
  );
}
