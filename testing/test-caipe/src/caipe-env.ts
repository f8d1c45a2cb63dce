import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runLogged, withSetupLock } from "@switchboard/vitest-config/run";
import { ensureUv, uvEnv } from "@switchboard-testing/test-python";
import type { CaipeAvailability } from "./locate.js";
import { writeTiktokenCache } from "./tiktoken-cache.js";

const STAMP = ".switchboard-caipe.ok";

/**
 * The uv projects the tests and the peer bench run, each synced from its own uv.lock as CAIPE's
 * images do (`uv sync --locked --no-dev`): the repository root's project is the supervisor image
 * (`ai_platform_engineering.multi_agents`), `agents/weather` the weather agent's image, `agents/jira`
 * the Jira agent's (its venv holds its MCP server, `mcp_jira`, too). (Not the petstore agent: at
 * this commit `agents/template`'s lock lacks the shared utils' dependencies, bs4 first, so its image
 * cannot start.)
 */
export const caipeProjects = {
  supervisor: ".",
  weather: join("ai_platform_engineering", "agents", "weather"),
  jira: join("ai_platform_engineering", "agents", "jira"),
} as const;
export type CaipeProject = keyof typeof caipeProjects;

/** What the tests run (the peer bench asks for the Jira agent besides). */
const TEST_PROJECTS: readonly CaipeProject[] = ["supervisor", "weather"];

export interface CaipeEnv {
  /** CAIPE's source tree (what its images copy to /app). */
  sourceDir: string;
  /** Each project's venv interpreter (built only for the projects asked for). */
  python: Record<CaipeProject, string>;
  /** A TIKTOKEN_CACHE_DIR holding cl100k_base. */
  tiktokenCacheDir: string;
}

export interface EnsureCaipeEnvOptions {
  onLog?: (line: string) => void;
  /** The projects whose venvs to build; default the supervisor and the weather agent. */
  projects?: readonly CaipeProject[];
}

const pending = new Map<string, Promise<CaipeEnv>>();

/**
 * Builds, once and cached, everything CAIPE's processes need: its source (exported from the git dir
 * into `<repo root>/.cache/caipe/src-<commit>`, unless CAIPE_SOURCE_DIR names a tree), uv (the tests'
 * own, `ensureUv`), one venv per project keyed by the source
 * and the hash of its uv.lock, and tiktoken's cache. Parallel processes take turns on a lock.
 */
export function ensureCaipeEnv(
  availability: CaipeAvailability,
  options: EnsureCaipeEnvOptions = {},
): Promise<CaipeEnv> {
  if (!availability.available) return Promise.reject(new Error(availability.reason));
  const projects = options.projects ?? TEST_PROJECTS;
  const key = [...projects].sort().join(",");
  let promise = pending.get(key);
  if (!promise) {
    promise = prepare(availability, projects, options.onLog ?? (() => {}));
    pending.set(key, promise);
    promise.catch(() => pending.delete(key));
  }
  return promise;
}

async function prepare(
  found: Extract<CaipeAvailability, { available: true }>,
  projects: readonly CaipeProject[],
  log: (line: string) => void,
): Promise<CaipeEnv> {
  const cacheDir = join(found.repoRoot, ".cache", "caipe");
  mkdirSync(cacheDir, { recursive: true });
  return withSetupLock(cacheDir, 20, async () => {
    const { source } = found;
    const sourceDir =
      source.kind === "tree" ? source.dir : exportTree(source.gitDir, source.commit, cacheDir, log);
    const sourceKey =
      source.kind === "tree" ? `tree-${hash(source.dir).slice(0, 8)}` : source.commit.slice(0, 12);
    const python = {} as Record<CaipeProject, string>;
    for (const [name, project] of Object.entries(caipeProjects) as [CaipeProject, string][]) {
      const projectDir = join(sourceDir, project);
      const lockHash = hash(readFileSync(join(projectDir, "uv.lock"))).slice(0, 12);
      const venvDir = join(cacheDir, `venv-${name}-${sourceKey}-${lockHash}`);
      python[name] = join(venvDir, "bin", "python");
      if (!projects.includes(name)) continue;
      if (existsSync(join(venvDir, STAMP)) && existsSync(python[name])) continue;
      const uv = await ensureUv(found.repoRoot, found.python, log);
      log(`uv sync --frozen --no-dev in ${projectDir} into ${venvDir}`);
      await runLogged(uv, ["sync", "--frozen", "--no-dev"], {
        cwd: projectDir,
        env: uvEnv({ UV_PROJECT_ENVIRONMENT: venvDir, UV_PYTHON: found.python, UV_HTTP_TIMEOUT: "900" }),
        log,
      });
      writeFileSync(join(venvDir, STAMP), `${new Date().toISOString()}\n`);
    }
    const tiktokenCacheDir = writeTiktokenCache(join(cacheDir, "tiktoken"));
    return { sourceDir, python, tiktokenCacheDir };
  });
}

/** `git archive` of the pinned commit into the cache (never into the work tree's tracked files). */
function exportTree(gitDir: string, commit: string, cacheDir: string, log: (line: string) => void): string {
  const dir = join(cacheDir, `src-${commit.slice(0, 12)}`);
  if (existsSync(join(dir, STAMP))) return dir;
  log(`exporting CAIPE ${commit.slice(0, 9)} from ${gitDir} to ${dir}`);
  const part = `${dir}.part`;
  rmSync(part, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(part, { recursive: true });
  execFileSync("sh", ["-c", 'git -C "$0" archive "$1" | tar -x -C "$2"', gitDir, commit, part], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  writeFileSync(join(part, STAMP), `${commit}\n`);
  renameSync(part, dir);
  return dir;
}

function hash(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}
