import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig } from "vitest/config";

/**
 * The export condition under which workspace packages point at their TypeScript sources (the unit
 * run reads them so, unit.js). It bears the workspace's scope because a condition is matched in every
 * package resolved, third-party ones too: several publish a plain `source` condition naming .ts files
 * (eventsource-parser's `src/stream.ts`) that Node then cannot load.
 */
export const SOURCE_CONDITION = "@switchboard/source";

/**
 * What every test run shares, the packages' and the unit run: generous timeouts because integration
 * tests start real servers and processes (on 2 cores the slowest default-timeout test took 19 s in a
 * full `npm test`, and 67 s at turbo's default 10 tasks at once), forks, and each file's scratch
 * folders removed when it ends.
 */
export const sharedTestSettings = {
  testTimeout: 180_000,
  hookTimeout: 240_000,
  pool: "forks",
  setupFiles: [fileURLToPath(new URL("./setup.js", import.meta.url))],
};

/**
 * A package's test settings: its unit tests (`*.test.ts`, no server or process) and integration tests
 * (`*.int.test.ts`), a JSON report (summed by scripts/test-all.mjs). `mongo: true` runs the suite
 * against one MongoDB: MONGODB_URI, or a test server started for the run.
 */
export function defineTestConfig({ mongo = false, ...overrides } = {}) {
  return mergeConfig(
    defineConfig({
      test: {
        ...sharedTestSettings,
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        exclude: ["**/node_modules/**"],
        reporters: ["default", "json"],
        outputFile: { json: ".reports/vitest.json" },
        globalSetup: mongo ? ["@switchboard-testing/test-mongo/global-setup"] : [],
      },
    }),
    overrides,
  );
}
