import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The repository's files as git sees them (tracked and new, not ignored) in a fresh temp folder. */
export function copyRepo(prefix = "create-agent-test-"): string {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    encoding: "utf8",
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
  return target;
}

/** A digest of every file's path and content, leaving out installs and build output. */
export function hashTree(root: string): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      if (["node_modules", ".git", ".turbo", "dist", ".reports"].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else
        hash
          .update(`${relative(root, path)}\0`)
          .update(readFileSync(path))
          .update("\0");
    }
  };
  walk(root);
  return hash.digest("hex");
}

export interface RunResult {
  code: number | null;
  output: string;
}

/** Runs a command to the end, collecting stdout and stderr together; never throws on a non-zero exit. */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: {
        ...process.env,
        TURBO_TELEMETRY_DISABLED: "1",
        NO_COLOR: "1",
        // This checkout's build cache: packages the copy did not change build as cache hits (the
        // same inputs hash the same in a copy), as they would in a developer's clone.
        TURBO_CACHE_DIR: join(repoRoot, ".turbo", "cache"),
        ...options.env,
      },
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
      resolve({ code, output });
    });
  });
}
