// The checkpointer bench's results table: one row per stored size, operation and reader, the
// savers side by side, with ours ÷ upstream and the issue's `list` target.
import type { SaverName } from "./checkpointer-savers.js";
import { markdownTable, ms, opsPerSecond, type Summary, summarize } from "./checkpointer-stats.js";

export interface Row {
  section: string;
  /** Checkpoints stored when the row was measured (the long conversation's rows: none). */
  stored?: number;
  operation: string;
  reader: "warm" | "cold";
  /** Milliseconds per call, by saver. */
  samples: Map<SaverName, number[]>;
  /** Database commands per call, by saver. */
  queries?: Map<SaverName, number[]>;
}

/** Ours, `list`, with this many checkpoints stored: p50 under this many ms. */
export interface ListTarget {
  ms: number;
  stored: number;
}

export function renderRows(rows: Row[], names: SaverName[], target: ListTarget): string {
  const header = [
    "stored",
    "operation",
    "reader",
    ...names.map((name) => `${name} p50 / p95 ms`),
    ...names.map((name) => `${name} ops/s`),
    ...names.filter((name) => name !== "memory").map((name) => `${name} queries`),
    "n",
    "ours ÷ upstream p50",
    `list ≤ ${target.ms} ms`,
  ];
  const body = rows.map((row) => {
    const stats = new Map(names.map((name) => [name, summarize(row.samples.get(name))]));
    const cell = (summary: Summary | undefined) =>
      summary ? `${ms(summary.p50)} / ${ms(summary.p95)}` : "—";
    const ours = stats.get("ours");
    const upstream = stats.get("upstream");
    const counts = [...stats.values()].filter((s): s is Summary => s !== undefined).map((s) => s.n);
    const isList = row.operation.startsWith("list");
    return [
      row.section,
      row.operation,
      row.reader,
      ...names.map((name) => cell(stats.get(name))),
      ...names.map((name) => {
        const summary = stats.get(name);
        return summary ? opsPerSecond(summary.opsPerSecond) : "—";
      }),
      ...names.filter((name) => name !== "memory").map((name) => meanQueries(row.queries?.get(name))),
      counts.length > 0 ? String(Math.min(...counts)) : "0",
      ours && upstream ? `${(ours.p50 / upstream.p50).toFixed(2)}×` : "—",
      isList && ours && row.stored !== undefined ? (ours.p50 <= target.ms ? "ok" : "over") : "",
    ];
  });
  return markdownTable(header, body);
}

/** Mean database commands per call ("—" where not counted). */
function meanQueries(counts: number[] | undefined): string {
  if (!counts || counts.length === 0) return "—";
  const mean = counts.reduce((sum, value) => sum + value, 0) / counts.length;
  return mean >= 100 || Number.isInteger(mean) ? mean.toFixed(0) : mean.toFixed(1);
}

export function targetVerdicts(rows: Row[], target: ListTarget): string[] {
  const lines: string[] = [];
  const at = rows.filter(
    (row) => (row.stored ?? 0) >= target.stored * 0.99 && row.operation.startsWith("list"),
  );
  for (const row of at) {
    const ours = summarize(row.samples.get("ours"));
    if (!ours) continue;
    const verdict = ours.p50 <= target.ms ? "ok" : "OVER";
    lines.push(
      `  ${verdict.padEnd(4)} ${row.operation}, ${row.reader}: p50 ${ms(ours.p50)} ms, p95 ${ms(ours.p95)} ms`,
    );
  }
  return lines;
}
