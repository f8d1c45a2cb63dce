#!/usr/bin/env node
// Builds (or checks) CAIPE's cached source export and venvs under <repo root>/.cache/caipe, as the
// tests' global setup does. Prints each project's interpreter; exits 3 with the reason when CAIPE
// cannot run here (no source, no Python 3.13).
import { ensureCaipeEnv } from "../dist/caipe-env.js";
import { locateCaipe } from "../dist/locate.js";

const found = locateCaipe();
if (!found.available) {
  console.error(found.reason);
  process.exit(3);
}
const started = Date.now();
const env = await ensureCaipeEnv(found, { onLog: (line) => console.error(line) });
console.error(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
for (const [name, python] of Object.entries(env.python)) console.log(`${name} ${python}`);
