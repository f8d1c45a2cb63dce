#!/usr/bin/env node
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runOnFakes } from "../dist/run.js";

// The repository root: testing/eval-fakes/bin → ../../..
process.exitCode = await runOnFakes(
  process.argv.slice(2),
  join(dirname(fileURLToPath(import.meta.url)), "..", "..", ".."),
);
