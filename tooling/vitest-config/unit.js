// `pnpm test:unit`: every package's unit tests (`*.test.ts`; no server or process) in one vitest
// project, from sources, in well under a minute: no build, no MongoDB, Java or Python (those are the
// integration tests', `*.int.test.ts`, run by `npm test`).
//
// One project, not one per package: each project has its own Vite server and transforms the shared
// sources again. And one worker keeps the modules it loaded between files (isolate: false), which
// unit tests allow because they keep no module state (values are passed, not held in modules):
// re-importing LangChain and the rest for each of ~120 files cost four times the CPU of the tests.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { parse } from "yaml";
import { SOURCE_CONDITION, sharedTestSettings } from "./index.js";

const repoRoot = resolve(import.meta.dirname, "..", "..");
const { packages = [] } = parse(readFileSync(join(repoRoot, "pnpm-workspace.yaml"), "utf8"));

export default defineConfig({
  root: repoRoot,
  resolve: { conditions: [SOURCE_CONDITION] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION] } },
  test: {
    ...sharedTestSettings,
    include: packages.flatMap((glob) => [`${glob}/src/**/*.test.ts`, `${glob}/test/**/*.test.ts`]),
    exclude: ["**/node_modules/**", "**/*.int.test.ts"],
    isolate: false,
    // Summed with the packages' reports by scripts/test-all.mjs, whose package runs leave these out.
    reporters: ["default", "json"],
    outputFile: { json: ".reports/vitest.json" },
  },
});
