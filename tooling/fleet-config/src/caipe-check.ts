import { readFileSync } from "node:fs";
import { unusedCaipeGroupOf } from "@switchboard/contract";
import { readEnvExample } from "./env-example.js";
import { type EnvScanCache, scanEnvReads } from "./env-scan.js";
import { runtimePackageDirs } from "./workspace.js";

/** CAIPE's own .env.example (0.5.x, Apache-2.0; see caipe/README.md), vendored beside this package. */
export const CAIPE_ENV_EXAMPLE = new URL("../caipe/caipe.env.example", import.meta.url);

/** Every variable CAIPE's .env.example sets or shows commented out. */
export function caipeVariableNames(): string[] {
  const text = readFileSync(CAIPE_ENV_EXAMPLE, "utf8");
  return [...new Set([...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1] as string))];
}

/**
 * A CAIPE .env works unchanged: each of CAIPE's variables is read by Switchboard (its code, or
 * .env.example's documented reads) or listed, with why, among the settings it names at start-up as
 * not used (UNUSED_CAIPE_SETTINGS in @switchboard/contract) — never both, never neither.
 */
export function checkCaipeNames(repoRoot: string, cache?: EnvScanCache): string[] {
  const reads = scanEnvReads(repoRoot, runtimePackageDirs(repoRoot), cache);
  const documented = readEnvExample(repoRoot).variables;
  const problems: string[] = [];
  for (const name of caipeVariableNames()) {
    const read =
      reads.names.has(name) ||
      documented.has(name) ||
      reads.patterns.some((pattern) => pattern.regex.test(name));
    const unused = unusedCaipeGroupOf(name) !== undefined;
    if (read && unused && reads.names.has(name)) {
      problems.push(
        `CAIPE's ${name} is read by ${reads.names.get(name)?.join(", ")} but listed as unused in UNUSED_CAIPE_SETTINGS (packages/contract/src/caipe-settings.ts); remove it there.`,
      );
    } else if (!read && !unused) {
      problems.push(
        `CAIPE's ${name} is neither read by Switchboard nor named as unused: honour it, or add it with why to UNUSED_CAIPE_SETTINGS (packages/contract/src/caipe-settings.ts).`,
      );
    }
  }
  return problems;
}
