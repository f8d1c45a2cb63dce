// Side-by-side sampling and the tables of the checkpointer bench.
import { performance } from "node:perf_hooks";

export interface SampleBudget {
  /** At most this many rounds. */
  rounds: number;
  /** Stop after this long once `minRounds` are done (a slow store gets fewer samples, not hours). */
  seconds: number;
  minRounds: number;
}

export interface Sampled<N extends string> {
  /** Milliseconds per call. */
  times: Map<N, number[]>;
  /** Database commands per call (see `counter`). */
  queries: Map<N, number[]>;
}

/**
 * Times `run(name, round)` for every name, one of each per round in a rotating order, so a slow
 * spell of the (shared, noisy) machine lands on all savers alike and the ratios between them hold.
 */
export async function sideBySide<N extends string>(
  names: readonly N[],
  run: (name: N, round: number) => Promise<unknown>,
  budget: SampleBudget,
  /** Untimed, before each sample. */
  prepare?: (name: N, round: number) => Promise<unknown>,
  /** A running count of database commands, read around each sample. */
  counter: () => number = () => 0,
): Promise<Sampled<N>> {
  const times = new Map<N, number[]>(names.map((name) => [name, []]));
  const queries = new Map<N, number[]>(names.map((name) => [name, []]));
  const started = performance.now();
  for (let round = 0; round < budget.rounds; round++) {
    if (round >= budget.minRounds && performance.now() - started > budget.seconds * 1000) break;
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length] as N;
      await prepare?.(name, round);
      const commands = counter();
      const start = performance.now();
      await run(name, round);
      times.get(name)?.push(performance.now() - start);
      queries.get(name)?.push(counter() - commands);
    }
  }
  return { times, queries };
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  /** One caller, one call after another: 1000 / mean ms. */
  opsPerSecond: number;
}

export function summarize(samples: number[] | undefined): Summary | undefined {
  if (!samples || samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), opsPerSecond: mean > 0 ? 1000 / mean : 0 };
}

export const ms = (value: number) =>
  value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);

export function opsPerSecond(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
