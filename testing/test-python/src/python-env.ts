import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runLogged, withSetupLock } from "@switchboard/vitest-config/run";
import { ensureUv, uvEnv } from "./uv.js";

/**
 * The virtualenvs this package manages, by name. Each installs one requirements file from `python/`
 * into one folder at the repo root. a2a-sdk 0.3 and 1.x cannot share a venv, hence two.
 */
export const pythonEnvs = {
  /** moto and a2a-sdk 0.3 (the line CAIPE's agents speak): `python/requirements.txt` into `<repo root>/.venv`. */
  default: { requirements: "requirements.txt", venv: ".venv" },
  /** a2a-sdk 1.x (A2A protocol 1.0): `python/requirements-a2a1.txt` into `<repo root>/.venv-a2a1`. */
  a2a1: { requirements: "requirements-a2a1.txt", venv: ".venv-a2a1" },
  /** The A2A TCK (testing/a2a-tck): `python/requirements-tck.txt` into `<repo root>/.venv-tck`. */
  tck: { requirements: "requirements-tck.txt", venv: ".venv-tck" },
  /** A small embeddings model that runs offline (WordLlama), for the knowledge benchmark: into `<repo root>/.venv-embeddings`. */
  embeddings: { requirements: "requirements-embeddings.txt", venv: ".venv-embeddings" },
} as const;

export type PythonEnvName = keyof typeof pythonEnvs;
export const pythonEnvNames = Object.keys(pythonEnvs) as PythonEnvName[];
/** The venvs tests use (the embeddings one is the benchmark's alone, installed when it runs). */
export const testPythonEnvNames: PythonEnvName[] = ["default", "a2a1"];

/** A repo-local virtualenv that holds Python test peers (moto, a2a-sdk). */
export interface PythonEnv {
  name: PythonEnvName;
  /** The venv's interpreter: run scripts with it, never with the system python3. */
  python: string;
  /** `<repo root>/.venv` or `<repo root>/.venv-a2a1` */
  venvDir: string;
  /** The requirements file installed into it. */
  requirementsFile: string;
  /** This package's `python/` folder with the peer scripts. */
  scriptsDir: string;
}

export interface EnsurePythonEnvOptions {
  /** Which venv: `default` (moto, a2a-sdk 0.3), `a2a1` (a2a-sdk 1.x) or `tck`. Default: `default`. */
  name?: PythonEnvName;
  /** Base interpreter that creates the venv. Default: `SWITCHBOARD_PYTHON`, else `python3`. */
  basePython?: string;
  /** Where the venv goes. Default: `<repo root>/` + the named venv's folder (`.venv`, `.venv-a2a1`). */
  venvDir?: string;
  /** Called with progress lines (venv creation, uv output) during a (re)install. */
  onLog?: (line: string) => void;
}

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));
export const pythonScriptsDir = join(packageRoot, "python");
const stampName = ".switchboard-requirements.sha256";
const minimumPython: [number, number] = [3, 10];

/** The workspace root: the nearest folder above this package with pnpm-workspace.yaml. */
export function findRepoRoot(from: string = packageRoot): string {
  let dir = from;
  while (!existsSync(join(dir, "pnpm-workspace.yaml"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No pnpm-workspace.yaml above ${from}: cannot place the .venv.`);
    dir = parent;
  }
  return dir;
}

const pending = new Map<string, Promise<PythonEnv>>();

/**
 * Creates the named venv (default: `<repo root>/.venv`) and installs its requirements file into it
 * with uv (see uv.ts), once per change of that file. A warm call only compares a hash. Parallel
 * test processes serialize on a lock folder beside the venv (`<venv>.lock`).
 */
export function ensurePythonEnv(options: EnsurePythonEnvOptions = {}): Promise<PythonEnv> {
  const name = options.name ?? "default";
  const { requirements, venv } = pythonEnvs[name];
  const venvDir = options.venvDir ?? join(findRepoRoot(), venv);
  let result = pending.get(venvDir);
  if (!result) {
    const env: PythonEnv = {
      name,
      python: join(venvDir, "bin", "python"),
      venvDir,
      requirementsFile: join(pythonScriptsDir, requirements),
      scriptsDir: pythonScriptsDir,
    };
    result = prepare(env, options);
    pending.set(venvDir, result);
    result.catch(() => pending.delete(venvDir));
  }
  return result;
}

async function prepare(env: PythonEnv, options: EnsurePythonEnvOptions): Promise<PythonEnv> {
  const { venvDir, requirementsFile } = env;
  const wanted = requirementsHash(requirementsFile);
  if (isCurrent(env, wanted)) return env;

  return withSetupLock(venvDir, 15, async () => {
    // Another process may have finished the install while this one waited for the lock.
    if (isCurrent(env, wanted)) return env;
    const log = options.onLog ?? (() => {});
    const base = options.basePython ?? process.env.SWITCHBOARD_PYTHON ?? "python3";
    await checkBasePython(base);
    const uv = await ensureUv(findRepoRoot(), base, log);
    if (!existsSync(env.python)) {
      rmSync(venvDir, { recursive: true, force: true });
      log(`creating ${venvDir} with ${base}`);
      await runLogged(uv, ["venv", "--quiet", "--python", base, venvDir], {
        env: uvEnv(),
        log,
        purpose: "create the Python test virtualenv",
      });
    }
    rmSync(join(venvDir, stampName), { force: true });
    log(`installing ${requirementsFile}`);
    await runLogged(uv, ["pip", "install", "--python", env.python, "--requirement", requirementsFile], {
      env: uvEnv(),
      log,
      purpose: "install the Python test peers",
      failedHint:
        "Check that PyPI is reachable (uv's index: UV_DEFAULT_INDEX, else pip's PIP_INDEX_URL, else PyPI).",
    });
    writeFileSync(join(venvDir, stampName), `${wanted}\n`);
    return env;
  });
}

function requirementsHash(requirementsFile: string): string {
  return createHash("sha256").update(readFileSync(requirementsFile)).digest("hex");
}

function isCurrent(env: PythonEnv, wanted: string): boolean {
  // existsSync follows the interpreter symlink, so a venv whose base Python was removed counts as stale.
  if (!existsSync(env.python)) return false;
  try {
    return readFileSync(join(env.venvDir, stampName), "utf8").trim() === wanted;
  } catch {
    return false;
  }
}

async function checkBasePython(base: string): Promise<void> {
  let version: string;
  try {
    version = await capture(base, ["-c", "import sys, venv; print('%d.%d' % sys.version_info[:2])"]);
  } catch (error) {
    throw new Error(
      `Cannot run \`${base}\` to create the Python test virtualenv (${(error as Error).message}). ` +
        `Install Python ${minimumPython.join(".")}+ with its venv module (Debian: apt-get install python3 python3-venv), ` +
        "or point SWITCHBOARD_PYTHON at an interpreter.",
    );
  }
  const [major = 0, minor = 0] = version.trim().split(".").map(Number);
  if (major < minimumPython[0] || (major === minimumPython[0] && minor < minimumPython[1])) {
    throw new Error(
      `\`${base}\` is Python ${version.trim()}; the Python test peers (a2a-sdk, moto) need ${minimumPython.join(".")}+. ` +
        "Point SWITCHBOARD_PYTHON at a newer interpreter.",
    );
  }
}

function capture(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(err.trim() || `exit ${code}`)),
    );
  });
}
