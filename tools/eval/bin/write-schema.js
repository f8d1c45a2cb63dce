#!/usr/bin/env node
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { evalSetJsonSchema } from "../dist/set/json-schema.js";

// Regenerates schema/eval-set.schema.json from the set format (src/set/schema.ts); a test keeps them equal.
writeFileSync(
  join(import.meta.dirname, "..", "schema", "eval-set.schema.json"),
  `${JSON.stringify(evalSetJsonSchema(), null, 2)}\n`,
);
