import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/**
 * The workspace's biome executable: its platform binary itself where it can be found (what
 * `node_modules/.bin/biome` would start through a shell script and a Node process, some 0.15 s a
 * file), else that script; undefined without biome installed.
 */
function biomeOf(repoRoot: string): string | undefined {
  const manifest = join(repoRoot, "node_modules", "@biomejs", "biome", "package.json");
  if (existsSync(manifest)) {
    const { resolve } = createRequire(manifest);
    for (const variant of [
      `${process.platform}-${process.arch}`,
      `${process.platform}-${process.arch}-musl`,
    ]) {
      try {
        return resolve(`@biomejs/cli-${variant}/biome`);
      } catch {
        // not this platform's package: try the next, then the script
      }
    }
  }
  const script = join(repoRoot, "node_modules", ".bin", "biome");
  return existsSync(script) ? script : undefined;
}

/**
 * Formats generated code with the workspace's own biome and settings (names and descriptions vary
 * in length, so a template cannot be pre-formatted for all of them). Without biome installed the
 * text is returned as rendered. The executable is found once, for every file of an agent.
 */
export function biomeFormatter(repoRoot: string): (repoPath: string, text: string) => string {
  const biome = biomeOf(repoRoot);
  return (repoPath, text) => {
    if (!biome || !/\.(ts|json)$/.test(repoPath)) return text;
    const result = spawnSync(biome, ["check", "--write", `--stdin-file-path=${repoPath}`], {
      cwd: repoRoot,
      input: text,
      encoding: "utf8",
      timeout: 30_000,
      maxBuffer: 256 * 1024 * 1024,
    });
    return result.status === 0 && result.stdout ? result.stdout : text;
  };
}
