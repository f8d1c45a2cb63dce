import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { AuditEntry, ChainedEntry } from "./entry.js";

/**
 * The hash chain over an agent's audit lines: each line's hash covers its content, its sequence
 * number and the previous line's hash, so a line edited in place, removed or reordered breaks
 * every check after it. Content is hashed in RFC 8785 canonical JSON, so the hash does not depend
 * on key order or on how the database returns numbers.
 */
export function hashOf(seq: number, prev: string, entry: AuditEntry): string {
  const text = canonicalize({ seq, prev, entry: withoutUndefined(entry) }) ?? "";
  return createHash("sha256").update(text).digest("hex");
}

export function chained(seq: number, prev: string, entry: AuditEntry): ChainedEntry {
  return { ...entry, seq, prev, hash: hashOf(seq, prev, entry) };
}

/** The entry a stored line holds, without its chain fields. */
export function entryOf(line: ChainedEntry): AuditEntry {
  const { seq: _seq, prev: _prev, hash: _hash, ...entry } = line;
  return entry;
}

export interface ChainProblem {
  seq: number;
  problem: "changed" | "missing-before" | "out-of-order";
  detail: string;
}

/**
 * Checks lines read in sequence order. With retention on, the oldest lines go by age (a TTL
 * index), so the trail may start after line 1; without it, it must start at 1.
 */
export function verifyChain(lines: ChainedEntry[], options: { retention: boolean }): ChainProblem[] {
  const problems: ChainProblem[] = [];
  const first = lines[0];
  if (first && first.seq !== 1 && !options.retention) {
    problems.push({
      seq: first.seq,
      problem: "missing-before",
      detail: `the trail starts at line ${first.seq}: ${first.seq - 1} line(s) before it were removed`,
    });
  }
  let previous: ChainedEntry | undefined;
  for (const line of lines) {
    if (hashOf(line.seq, line.prev, entryOf(line)) !== line.hash) {
      problems.push({ seq: line.seq, problem: "changed", detail: "its content does not match its hash" });
    }
    if (previous) {
      if (line.seq !== previous.seq + 1) {
        const gone = line.seq - previous.seq - 1;
        problems.push(
          line.seq > previous.seq
            ? { seq: line.seq, problem: "missing-before", detail: `${gone} line(s) before it were removed` }
            : { seq: line.seq, problem: "out-of-order", detail: `it follows line ${previous.seq}` },
        );
      } else if (line.prev !== previous.hash) {
        problems.push({
          seq: line.seq,
          problem: "changed",
          detail: `the line before it (${previous.seq}) is not the one it was written after`,
        });
      }
    }
    previous = line;
  }
  return problems;
}

function withoutUndefined(entry: AuditEntry): Record<string, unknown> {
  return JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
}
