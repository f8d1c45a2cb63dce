import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CHART_VALUES, COMPOSE_FILE, checkFleet, type EnvScanCache } from "@switchboard/fleet-config";

const ENV_EXAMPLE = ".env.example";

/** The fleet files an agent is registered in, by the key their text goes under. */
export const FLEET_FILES = {
  composeText: COMPOSE_FILE,
  envExampleText: ENV_EXAMPLE,
  chartText: CHART_VALUES,
} as const;

export type FleetTexts = Record<keyof typeof FLEET_FILES, string>;

export interface StagedChanges extends FleetTexts {
  /** The new agent package's folder under agents/, already written (a staged copy). */
  addAgent?: { folder: string; dir: string };
  /** The agent folder to leave out. */
  removeAgent?: string;
}

/**
 * Builds a view of the repository with the changes applied, without touching it: symlinks to the
 * real files, the new fleet file texts, and agents/ as it will be. fleet-config's checks read a
 * repository by path, so they run on this view unchanged.
 */
export function stageRepo(repoRoot: string, into: string, changes: StagedChanges): string {
  const staged = join(into, "repo");
  mkdirSync(join(staged, "agents"), { recursive: true });
  for (const entry of readdirSync(repoRoot)) {
    if (entry === "agents") continue;
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
  for (const [key, file] of Object.entries(FLEET_FILES)) {
    overlay(repoRoot, staged, file, changes[key as keyof FleetTexts]);
  }
  return staged;
}

/** Writes `text` at `relative` in the view: linked folders on its path become real ones with linked contents. */
function overlay(repoRoot: string, staged: string, relative: string, text: string): void {
  const parts = relative.split("/");
  let from = repoRoot;
  let to = staged;
  for (const part of parts.slice(0, -1)) {
    from = join(from, part);
    to = join(to, part);
    if (existsSync(to) && lstatSync(to).isSymbolicLink()) rmSync(to);
    if (!existsSync(to)) {
      mkdirSync(to);
      for (const child of readdirSync(from)) symlinkSync(join(from, child), join(to, child));
    }
  }
  const file = join(to, parts.at(-1) ?? "");
  rmSync(file, { force: true });
  writeFileSync(file, text);
}

/** Problems fleet-config finds in the staged repository that the real one does not already have. */
export function newFleetProblems(repoRoot: string, stagedRoot: string): string[] {
  // The staged view links to the same files: each is parsed once for both checks.
  const cache: EnvScanCache = new Map();
  const before = new Set(checkFleet(repoRoot, { cache }));
  return checkFleet(stagedRoot, { cache }).filter((problem) => !before.has(problem));
}
