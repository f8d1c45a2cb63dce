// `pnpm test:unit`: every package's unit tests in one vitest run, from sources, in seconds. No build,
// no MongoDB, Java or Python (those are the integration tests', `*.int.test.ts`, run by `npm test`).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { parse } from "yaml";
import { UNIT_ONLY } from "./index.js";

const repoRoot = resolve(import.meta.dirname, "..", "..");
// Each package's own vitest.config.ts (defineTestConfig) reads this as its project is loaded.
process.env[UNIT_ONLY] = "1";
const { packages = [] } = parse(readFileSync(join(repoRoot, "pnpm-workspace.yaml"), "utf8"));

export default defineConfig({
  root: repoRoot,
  test: { projects: packages.map((glob) => `${glob}/vitest.config.ts`) },
});
