import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { COMPOSE_FILE, checkFleet } from "@switchboard/fleet-config";

const ENV_EXAMPLE = ".env.example";

export interface StagedChanges {
  composeText: string;
  envExampleText: string;
  /** The new agent package's folder under agents/, already written (a staged copy). */
  addAgent?: { folder: string; dir: string };
  /** The agent folder to leave out. */
  removeAgent?: string;
}

/**
 * Builds a view of the repository with the changes applied, without touching it: symlinks to the
 * real files, the new compose and .env.example texts, and agents/ as it will be. fleet-config's
 * checks read a repository by path, so they run on this view unchanged.
 */
export function stageRepo(repoRoot: string, into: string, changes: StagedChanges): string {
  const staged = join(into, "repo");
  mkdirSync(join(staged, "agents"), { recursive: true });
  for (const entry of readdirSync(repoRoot)) {
    if (entry === "agents" || entry === COMPOSE_FILE || entry === ENV_EXAMPLE) continue;
    symlinkSync(join(repoRoot, entry), join(staged, entry));
  }
  // The checks list agents/ with isDirectory(), which a symlink is not: real folders, linked contents.
  for (const entry of readdirSync(join(repoRoot, "agents"), { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".") || entry.name === changes.removeAgent) continue;
    const from = join(repoRoot, "agents", entry.name);
    const to = join(staged, "agents", entry.name);
    mkdirSync(to);
    for (const child of readdirSync(from)) symlinkSync(join(from, child), join(to, child));
  }
  if (changes.addAgent) {
    const to = join(staged, "agents", changes.addAgent.folder);
    mkdirSync(to);
    for (const child of readdirSync(changes.addAgent.dir))
      symlinkSync(join(changes.addAgent.dir, child), join(to, child));
  }
  writeFileSync(join(staged, COMPOSE_FILE), changes.composeText);
  writeFileSync(join(staged, ENV_EXAMPLE), changes.envExampleText);
  return staged;
}

/** Problems fleet-config finds in the staged repository that the real one does not already have. */
export function newFleetProblems(repoRoot: string, stagedRoot: string): string[] {
  const before = new Set(checkFleet(repoRoot));
  return checkFleet(stagedRoot).filter((problem) => !before.has(problem));
}
