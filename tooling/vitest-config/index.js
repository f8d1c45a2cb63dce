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
 * Set by scripts/test-all.mjs for the packages' runs, which follow its unit run: that run has just
 * run every package's unit tests (from sources, in one process), so each package then runs its
 * integration tests alone instead of importing everything again to run the same unit tests twice.
 */
export const INTEGRATION_ONLY_ENV = "SWITCHBOARD_INTEGRATION_ONLY";

/**
 * A package's test settings: its unit tests (`*.test.ts`, no server or process) and integration tests
 * (`*.int.test.ts`; alone under INTEGRATION_ONLY_ENV), a JSON report (summed by scripts/test-all.mjs).
 * `mongo: true` runs the suite against one MongoDB: MONGODB_URI, or a test server started for the run.
 */
export function defineTestConfig({ mongo = false, ...overrides } = {}) {
  const integrationOnly = process.env[INTEGRATION_ONLY_ENV] === "1";
  const suffix = integrationOnly ? "int.test.ts" : "test.ts";
  return mergeConfig(
    defineConfig({
      test: {
        ...sharedTestSettings,
        include: [`src/**/*.${suffix}`, `test/**/*.${suffix}`],
        // A package whose tests are all unit tests has nothing left to run then.
        passWithNoTests: integrationOnly,
        exclude: ["**/node_modules/**"],
        reporters: ["default", "json"],
        outputFile: { json: ".reports/vitest.json" },
        globalSetup: mongo ? ["@switchboard-testing/test-mongo/global-setup"] : [],
      },
    }),
    overrides,
  );
}
