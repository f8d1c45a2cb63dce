#!/usr/bin/env node
// Creates or updates the venvs with the Python test peers: <repo root>/.venv (moto, a2a-sdk 0.3) and
// <repo root>/.venv-a2a1 (a2a-sdk 1.x). Arguments pick venvs by name (default, a2a1); none means all.
// Prints each venv's interpreter, one a line, in the order asked.
import { ensurePythonEnv, pythonEnvNames } from "../dist/python-env.js";

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !pythonEnvNames.includes(name));
if (unknown.length > 0) {
  console.error(`Unknown venv ${unknown.join(", ")}; known: ${pythonEnvNames.join(", ")}`);
  process.exit(2);
}
const started = Date.now();
const envs = await Promise.all(
  (asked.length > 0 ? asked : pythonEnvNames).map((name) =>
    ensurePythonEnv({ name, onLog: (line) => console.error(`[${name}] ${line}`) }),
  ),
);
console.error(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
for (const env of envs) console.log(env.python);
