import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface EnvExample {
  /** Variable → its default as written (possibly empty) and line number. */
  variables: Map<string, { value: string; line: number }>;
  /** Names written more than once. */
  duplicates: string[];
  /** UPPER_SNAKE words mentioned in comments, `<WORD>` placeholders turned into `WORD`. */
  mentioned: Set<string>;
  /** Lines that are neither comments, blank, nor NAME=value. */
  malformed: number[];
}

export function readEnvExample(repoRoot: string): EnvExample {
  const path = join(repoRoot, ".env.example");
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const example: EnvExample = { variables: new Map(), duplicates: [], mentioned: new Set(), malformed: [] };
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (line === "") return;
    if (line.startsWith("#")) {
      for (const word of line.replace(/<([A-Z_]+)>/g, "$1").match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ??
        []) {
        example.mentioned.add(word);
      }
      return;
    }
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!match?.[1]) {
      example.malformed.push(index + 1);
      return;
    }
    if (example.variables.has(match[1])) example.duplicates.push(match[1]);
    example.variables.set(match[1], { value: match[2] ?? "", line: index + 1 });
  });
  return example;
}
