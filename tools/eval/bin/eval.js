#!/usr/bin/env node
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../dist/cli.js";

// The repository root: tools/eval/bin → ../../..
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
process.exitCode = await main(process.argv.slice(2), process.env, {
  root,
  out: (line) => process.stdout.write(`${line}\n`),
});
