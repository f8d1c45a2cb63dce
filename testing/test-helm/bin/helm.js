#!/usr/bin/env node
// Runs the helm the tests use (built into <repo root>/.tools/helm-<version> on first use) with the
// given arguments, e.g. `switchboard-helm template charts/switchboard`. The build's progress goes to stderr.
import { spawnSync } from "node:child_process";
import { ensureHelm } from "../dist/helm.js";

const helm = await ensureHelm({ onLog: (line) => console.error(`[helm build] ${line}`) });
const result = spawnSync(helm.path, process.argv.slice(2), {
  stdio: "inherit",
  env: { ...process.env, ...helm.env },
});
process.exit(result.status ?? 1);
