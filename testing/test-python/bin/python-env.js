#!/usr/bin/env node
// Creates or updates <repo root>/.venv with the Python test peers (moto, a2a-sdk); prints its interpreter.
import { ensurePythonEnv } from "../dist/python-env.js";

const started = Date.now();
const env = await ensurePythonEnv({ onLog: (line) => console.error(line) });
console.error(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
console.log(env.python);
