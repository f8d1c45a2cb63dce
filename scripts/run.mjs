#!/usr/bin/env node
// `npm start` and `npm test` on a machine that has only Node.js: fetch the pnpm release pinned in
// package.json into .tools/, install the workspace, then hand over to the task. Each step is a
// no-op when nothing changed, so repeated runs are quick.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { packageManager } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const version = packageManager.replace(/^pnpm@/, "");
const toolDir = join(root, ".tools", `pnpm-${version}`);
const pnpmEntry = join(toolDir, "node_modules", "pnpm", "bin", "pnpm.cjs");

// turbo and package scripts look pnpm up on PATH; turbo's telemetry stays off.
process.env.PATH = [join(toolDir, "node_modules", ".bin"), process.env.PATH].join(delimiter);
process.env.TURBO_TELEMETRY_DISABLED ??= "1";

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function pnpm(...args) {
  run(process.execPath, [pnpmEntry, ...args]);
}

if (!existsSync(pnpmEntry)) {
  console.log(`Fetching pnpm ${version} into .tools/ (once) ...`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  run(npm, [
    "install",
    "--prefix",
    toolDir,
    "--no-save",
    "--no-package-lock",
    "--no-audit",
    "--no-fund",
    `pnpm@${version}`,
  ]);
}

pnpm("install", "--prefer-offline", ...(process.env.CI ? ["--frozen-lockfile"] : []));

const [task, ...rest] = process.argv.slice(2);
switch (task) {
  case "test":
    pnpm("exec", "node", "scripts/test-all.mjs", ...rest);
    break;
  case "start":
    pnpm("exec", "turbo", "run", "build", "--output-logs=errors-only");
    pnpm("exec", "node", "tools/fleet/bin/fleet.js", ...rest);
    break;
  default:
    pnpm(task ?? "--help", ...rest);
}
