#!/usr/bin/env node
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../dist/cli.js";

// The repository root: tools/fleet/bin → ../../..
await main(join(dirname(fileURLToPath(import.meta.url)), "..", "..", ".."));
