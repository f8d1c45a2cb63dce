import { defineConfig, mergeConfig } from "vitest/config";

/** Set by unit.js: only the unit tests run (`pnpm test:unit`). */
export const UNIT_ONLY = "SWITCHBOARD_UNIT_TESTS";

/**
 * The export condition under which workspace packages point at their TypeScript sources. It bears the
 * workspace's scope because a condition is matched in every package resolved, third-party ones too:
 * several publish a plain `source` condition naming .ts files that are not in their tarball's build
 * (eventsource-parser's `src/stream.ts`), which Node then cannot load.
 */
export const SOURCE_CONDITION = "@switchboard/source";

/**
 * Shared test settings: a JSON report per package (summed by scripts/test-all.mjs), and generous
 * timeouts because integration tests start real servers and processes: on 2 cores the slowest
 * default-timeout test took 19 s in a full `npm test`, and 67 s at turbo's default 10 tasks at once.
 * `mongo: true` runs the suite against one MongoDB: MONGODB_URI, or a test server started for the run.
 *
 * Unit tests (`*.test.ts`) start no server or process; integration tests are `*.int.test.ts`. With
 * only unit tests (unit.js), workspace packages are read from their sources (SOURCE_CONDITION), so
 * nothing needs building, and no MongoDB is started.
 */
export function defineTestConfig({ mongo = false, ...overrides } = {}) {
  const unitOnly = process.env[UNIT_ONLY] === "1";
  if (unitOnly) overrides = { ...overrides, test: forUnitTests(overrides.test) };
  return mergeConfig(
    defineConfig({
      ...(unitOnly
        ? {
            resolve: { conditions: [SOURCE_CONDITION] },
            ssr: { resolve: { conditions: [SOURCE_CONDITION] } },
          }
        : {}),
      test: {
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        exclude: unitOnly ? ["**/node_modules/**", "**/*.int.test.ts"] : ["**/node_modules/**"],
        reporters: unitOnly ? ["default"] : ["default", "json"],
        outputFile: { json: ".reports/vitest.json" },
        testTimeout: 180_000,
        hookTimeout: 240_000,
        pool: "forks",
        globalSetup: mongo && !unitOnly ? ["@switchboard-testing/test-mongo/global-setup"] : [],
      },
    }),
    overrides,
  );
}

/** A package's own test settings, less what serves only its integration tests (servers, scheduling). */
function forUnitTests(test = {}) {
  const { globalSetup: _servers, maxWorkers: _max, minWorkers: _min, sequence: _order, ...rest } = test;
  return rest;
}
