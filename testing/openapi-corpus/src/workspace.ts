import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * The repository's files as git sees them (tracked and new, not ignored) in a fresh temp folder, with
 * the workspace's node_modules linked in: `pnpm new-agent` writes the fleet files of this copy, never
 * the checkout's.
 */
export function copyRepo(prefix: string): string {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const target = mkdtempSync(join(tmpdir(), prefix));
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    const from = join(repoRoot, file);
    if (!existsSync(from)) continue; // deleted in the work tree, not yet in git
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(from, join(target, file));
  }
  // biome reads .gitignore through git (vcs.useIgnoreFile).
  spawnSync("git", ["init", "-q"], { cwd: target });
  symlinkSync(join(repoRoot, "node_modules"), join(target, "node_modules"));
  return target;
}

/**
 * Gives a generated package the installed dependencies of agents/petstore, the package the same
 * generator made and the workspace installed: the same dependency list, so the same folder serves
 * (its workspace links resolve to this checkout's built packages). Saves a `pnpm install` of the
 * copy, which took most of a minute per run.
 */
export function linkInstalledDependencies(packageDir: string): void {
  symlinkSync(join(repoRoot, "agents", "petstore", "node_modules"), join(packageDir, "node_modules"));
}

/** The workspace's package folders of this checkout, whose installs `linkDeclaredDependencies` reads. */
const WORKSPACE_FOLDERS = ["agents", "packages", "tools", "tooling", "testing"];

/**
 * Gives a generated package exactly the dependencies its package.json declares, each as this
 * checkout's install resolved it (a workspace package, or the catalog's one version), and their
 * commands in its node_modules/.bin: what `pnpm install` links for a new package whose dependency
 * list no installed package shares. Throws naming a dependency the checkout never installed.
 */
export function linkDeclaredDependencies(packageDir: string): void {
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const declared = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
  const installs = WORKSPACE_FOLDERS.flatMap((folder) =>
    readdirSync(join(repoRoot, folder)).map((name) => join(repoRoot, folder, name, "node_modules")),
  );
  const modules = join(packageDir, "node_modules");
  const bin = join(modules, ".bin");
  mkdirSync(bin, { recursive: true });
  for (const name of declared) {
    const found = installs.map((dir) => join(dir, name)).find((dir) => existsSync(dir));
    if (!found)
      throw new Error(`${packageDir} declares ${name}, which no package of this checkout installed.`);
    const target = realpathSync(found);
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(target, join(modules, name));
    const { bin: commands } = JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as {
      bin?: string | Record<string, string>;
    };
    const named =
      typeof commands === "string" ? { [name.replace(/^@[^/]+\//, "")]: commands } : (commands ?? {});
    for (const [command, file] of Object.entries(named)) symlinkSync(join(target, file), join(bin, command));
  }
}

export interface RunResult {
  code: number | null;
  output: string;
  ms: number;
}

/** Runs a command to the end, collecting stdout and stderr together; never throws on a non-zero exit. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", NO_COLOR: "1", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 300_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

/** Runs `work` on every item, at most `limit` at once (the machine has two cores). */
export async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
