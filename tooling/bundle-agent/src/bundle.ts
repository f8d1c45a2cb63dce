import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";

/** The package every agent depends on, whose own dependencies the left-out packages load from. */
export const RUNTIME_PACKAGE = "@switchboard/agent-runtime";

/**
 * Packages the bundle leaves out: each reads files that sit beside its own code, or is patched in
 * place by tracing, so it must load from its installed folder. A name ending in "/" is a scope.
 * - mongodb: the OpenTelemetry MongoDB instrumentation patches the driver's own files.
 * - @cedar-policy/cedar-wasm: reads its .wasm file beside its code.
 * - @opentelemetry/: the SDK's require hook patches modules as they load, and its gRPC exporter
 *   reads .proto files; one copy of the API serves the agent and the SDK.
 */
const KEPT_OUT = ["mongodb", "@cedar-policy/cedar-wasm", "@opentelemetry/"];

export interface BundleReport {
  entry: string;
  /** Output files (the entry and its chunks, not source maps). */
  files: number;
  /** Modules bundled in. */
  modules: number;
  ms: number;
}

/**
 * Bundles an agent package's entry (src/index.ts) and everything it imports into dist/index.js and
 * dist/chunks/: at start Node reads and compiles a handful of files instead of some 1,500 modules
 * (half the CPU an agent spends before it is ready). Lazy imports stay lazy (their own chunks), the
 * Node built-ins stay Node's, and the KEPT_OUT packages load at run time from RUNTIME_PACKAGE's own
 * dependencies, which resolve the same in the workspace and in a deployed image (pnpm deploy).
 */
export async function bundleAgent(packageDir: string): Promise<BundleReport> {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    name?: string;
    dependencies?: Record<string, string>;
  };
  if (!manifest.dependencies?.[RUNTIME_PACKAGE]) {
    throw new Error(
      `${manifest.name ?? packageDir} does not depend on ${RUNTIME_PACKAGE}, which the bundle loads ` +
        `${KEPT_OUT.join(", ")} from: add it to "dependencies" in its package.json.`,
    );
  }
  const outdir = join(packageDir, "dist");
  rmSync(join(outdir, "chunks"), { recursive: true, force: true });
  const started = performance.now();
  const result = await build({
    absWorkingDir: packageDir,
    entryPoints: { index: "src/index.ts" },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    // A package without an exports map is taken as its ES module build where it has one: a lazy
    // import() of a CommonJS build would hand back only its default export (module.exports).
    mainFields: ["module", "main"],
    target: "node26",
    chunkNames: "chunks/[name]-[hash]",
    // CommonJS packages in an ES module bundle call require (Node's built-ins, mostly): give them
    // the module's own, as Node gives a CommonJS file.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
    plugins: [keepOut(KEPT_OUT)],
  });
  const outputs = Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js"));
  return {
    entry: join(outdir, "index.js"),
    files: outputs.length,
    modules: Object.keys(result.metafile.inputs).filter((file) => !file.startsWith("kept-out:")).length,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * Replaces each import of a kept-out package with a module that requires it from RUNTIME_PACKAGE's
 * folder (found from the bundle's own place: node_modules/<runtime> beside the agent's dist).
 */
function keepOut(packages: string[]): Plugin {
  const names = packages.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  const filter = new RegExp(
    `^(${names.map((name) => (name.endsWith("/") ? `${name}.+` : `${name}(/.*)?`)).join("|")})$`,
  );
  return {
    name: "keep-out",
    setup(bundler) {
      bundler.onResolve({ filter }, (args) => ({ path: args.path, namespace: "kept-out" }));
      bundler.onLoad({ filter: /.*/, namespace: "kept-out" }, (args) => ({
        contents:
          'module.exports = require("node:module")' +
          `.createRequire(require.resolve(${JSON.stringify(`${RUNTIME_PACKAGE}/package.json`)}))` +
          `(${JSON.stringify(args.path)});`,
        loader: "js",
      }));
    },
  };
}
