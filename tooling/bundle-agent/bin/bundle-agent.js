#!/usr/bin/env node
// Run from an agent package's folder (its build script: tsc -p tsconfig.build.json && bundle-agent).
let main;
try {
  ({ main } = await import("../dist/main.js"));
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  console.error("bundle-agent is not built yet: run pnpm build.");
  process.exit(1);
}
process.exitCode = await main(process.cwd());
