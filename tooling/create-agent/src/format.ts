import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * Formats generated code with the workspace's own biome and settings (names and descriptions vary
 * in length, so a template cannot be pre-formatted for all of them). Without biome installed the
 * text is returned as rendered.
 */
export function formatWithBiome(repoRoot: string, repoPath: string, text: string): string {
  if (!/\.(ts|json)$/.test(repoPath)) return text;
  const biome = join(repoRoot, "node_modules", ".bin", "biome");
  if (!existsSync(biome)) return text;
  const result = spawnSync(biome, ["check", "--write", `--stdin-file-path=${repoPath}`], {
    cwd: repoRoot,
    input: text,
    encoding: "utf8",
    timeout: 30_000,
  });
  return result.status === 0 && result.stdout ? result.stdout : text;
}
