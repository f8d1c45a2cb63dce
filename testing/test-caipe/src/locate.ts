import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The CAIPE tree the tests run: the 0.5.x line just before its PR #1728. Its code is never kept in
 * this repository; it is found at test time (see {@link locateCaipe}).
 */
export const CAIPE_COMMIT = "e9d5c419114784de55f10d8a37a720ec6aa4eba6";

/** Where CAIPE's code comes from: an exported tree, or a git dir to export the pinned commit from. */
export type CaipeSource = { kind: "tree"; dir: string } | { kind: "git"; gitDir: string; commit: string };

export type CaipeAvailability =
  | { available: true; source: CaipeSource; python: string; repoRoot: string }
  | { available: false; reason: string };

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/** The workspace root: the nearest folder above this package with pnpm-workspace.yaml. */
export function findRepoRoot(from: string = packageRoot): string {
  let dir = from;
  while (!existsSync(join(dir, "pnpm-workspace.yaml"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No pnpm-workspace.yaml above ${from}.`);
    dir = parent;
  }
  return dir;
}

/**
 * Whether CAIPE's tests can run here, and if not why. Synchronous, so `describe.skipIf` can use it.
 * The source: `CAIPE_SOURCE_DIR` (an exported tree of CAIPE), else the git dir `CAIPE_GIT_DIR`, else
 * the mirror beside the repository (`../.mirror/cnoe-io+ai-platform-engineering/repo`) holding the
 * pinned commit. Python 3.13 (CAIPE requires it): `CAIPE_PYTHON`, else `python3.13` on PATH, else
 * pyenv's newest 3.13.
 */
export function locateCaipe(env: NodeJS.ProcessEnv = process.env): CaipeAvailability {
  const repoRoot = findRepoRoot();
  const source = locateSource(env, repoRoot);
  if (typeof source === "string") return { available: false, reason: source };
  const python = locatePython(env);
  if (!python) {
    return {
      available: false,
      reason:
        "CAIPE needs Python 3.13: none found (CAIPE_PYTHON, python3.13 on PATH, pyenv versions/3.13.*).",
    };
  }
  return { available: true, source, python, repoRoot };
}

function locateSource(env: NodeJS.ProcessEnv, repoRoot: string): CaipeSource | string {
  const tree = env.CAIPE_SOURCE_DIR;
  if (tree) {
    return existsSync(join(tree, "ai_platform_engineering", "multi_agents"))
      ? { kind: "tree", dir: tree }
      : `CAIPE_SOURCE_DIR=${tree} holds no ai_platform_engineering/multi_agents.`;
  }
  const gitDir =
    env.CAIPE_GIT_DIR ?? join(dirname(repoRoot), ".mirror", "cnoe-io+ai-platform-engineering", "repo");
  if (!existsSync(gitDir)) {
    return `CAIPE's source is absent: set CAIPE_SOURCE_DIR to an exported tree of cnoe-io/ai-platform-engineering (commit ${CAIPE_COMMIT.slice(0, 9)}) or CAIPE_GIT_DIR to a clone (looked for ${gitDir}).`;
  }
  try {
    execFileSync("git", ["-C", gitDir, "cat-file", "-e", `${CAIPE_COMMIT}^{commit}`], { stdio: "ignore" });
  } catch {
    return `${gitDir} does not hold CAIPE commit ${CAIPE_COMMIT.slice(0, 9)} (or git is missing).`;
  }
  return { kind: "git", gitDir, commit: CAIPE_COMMIT };
}

function locatePython(env: NodeJS.ProcessEnv): string | undefined {
  const candidates = [env.CAIPE_PYTHON, "python3.13", ...pyenvPythons()].filter(
    (candidate): candidate is string => Boolean(candidate),
  );
  return candidates.find(is313);
}

function pyenvPythons(): string[] {
  let root: string;
  try {
    root = execFileSync("pyenv", ["root"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return [];
  }
  const versions = join(root, "versions");
  if (!existsSync(versions)) return [];
  return readdirSync(versions)
    .filter((name) => /^3\.13\.\d+$/.test(name))
    .sort((a, b) => Number(b.split(".")[2]) - Number(a.split(".")[2]))
    .map((name) => join(versions, name, "bin", "python3.13"));
}

function is313(python: string): boolean {
  try {
    const version = execFileSync(python, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return version.trim() === "3.13";
  } catch {
    return false;
  }
}
