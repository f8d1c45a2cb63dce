import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CorpusEntry, descriptionText, publishedFileName } from "./index.js";
import { type RunResult, repoRoot, run } from "./workspace.js";

/** The agent a description is made into: `corpus-<name>`. */
export const agentNameOf = (entry: CorpusEntry) => `corpus-${entry.name}`;

/** Where the description lies in a copy, as published (decompressed): what `--openapi` is given. */
export function sourceFileIn(repo: string, entry: CorpusEntry): string {
  return join(repo, ".corpus", entry.name, publishedFileName(entry));
}

/**
 * `pnpm new-agent corpus-<name> --openapi <file>` in the copy `repo` (this checkout's built CLI, as
 * the root script runs it after its build), with the entry's large-description options.
 */
export function generate(repo: string, entry: CorpusEntry, timeoutMs = 300_000): Promise<RunResult> {
  const file = sourceFileIn(repo, entry);
  mkdirSync(join(repo, ".corpus", entry.name), { recursive: true });
  writeFileSync(file, descriptionText(entry));
  const tags = entry.generate?.tags ? ["--tags", entry.generate.tags.join(",")] : [];
  return run(
    process.execPath,
    [
      join(repoRoot, "tooling/create-agent/bin/create-agent.js"),
      "new",
      agentNameOf(entry),
      "--root",
      repo,
      "--openapi",
      file,
      "--description",
      `The ${entry.name} API through its published OpenAPI description (the corpus test's agent).`,
      ...tags,
    ],
    { cwd: repo, timeoutMs },
  );
}
