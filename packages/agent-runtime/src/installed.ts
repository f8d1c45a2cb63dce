import { createRequire } from "node:module";

/**
 * require, resolving from this package's installed folder (node_modules/@switchboard/agent-runtime):
 * the same place whether the runtime runs as its own files or bundled into an agent's dist/index.js
 * (where import.meta.url is the bundle's, beside none of these dependencies). For the packages loaded
 * on first use, and the ones an agent's bundle leaves out (tooling/bundle-agent's KEPT_OUT).
 */
export const requireInstalled = createRequire(import.meta.resolve("@switchboard/agent-runtime/package.json"));
