import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { EvalCase } from "./case.js";
import { evalInputError } from "./errors.js";
import { caipeSource, loadCaipeSet } from "./set/caipe.js";
import { type LoadedSet, loadSetFile } from "./set/load.js";

/** The sets that ship with Switchboard (`--set shipped`). */
export const SHIPPED_SETS = join(import.meta.dirname, "..", "sets");

/**
 * A `--set` as given: a YAML file, a folder of them, `shipped`, or `caipe:<set>` (CAIPE's
 * datasets read unchanged from its repository at the pinned commit).
 */
export function loadSets(specs: readonly string[], env: NodeJS.ProcessEnv): LoadedSet[] {
  const sets = specs.flatMap((spec): LoadedSet[] => {
    if (spec.startsWith("caipe:")) return [loadCaipeSet(spec.slice("caipe:".length), caipeSource(env))];
    const path = spec === "shipped" ? SHIPPED_SETS : spec;
    if (!existsSync(path))
      throw evalInputError(
        `No evaluation set at ${path}: give a YAML file, a folder of them, shipped or caipe:<set>.`,
      );
    if (statSync(path).isDirectory())
      return readdirSync(path)
        .filter((name) => /\.ya?ml$/.test(name))
        .sort()
        .map((name) => loadSetFile(join(path, name)));
    return [loadSetFile(path)];
  });
  const seen = new Map<string, string>();
  for (const c of sets.flatMap((set) => set.cases)) {
    const before = seen.get(c.key);
    if (before)
      throw evalInputError(
        `Case ${c.key} is in two sets (${before} and ${c.origin}): give each set its own name.`,
      );
    seen.set(c.key, c.origin);
  }
  return sets;
}

export const allCases = (sets: readonly LoadedSet[]): EvalCase[] => sets.flatMap((set) => set.cases);
