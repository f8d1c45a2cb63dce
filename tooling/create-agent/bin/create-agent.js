#!/usr/bin/env node
let main;
try {
  ({ main } = await import("../dist/main.js"));
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  console.error("create-agent is not built yet: run pnpm build (or use pnpm new-agent, which builds it).");
  process.exit(1);
}
process.exitCode = await main(process.argv.slice(2));
