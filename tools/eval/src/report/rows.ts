import type { CaseResult, ConfigResult } from "../evaluate.js";
import type { GateResult } from "../gate.js";

/** What both renderings (Markdown, HTML) show, computed once. */
export interface ReportModel {
  title: string;
  configs: Array<{ name: string; cells: string[] }>;
  summaryHeader: string[];
  cases: Array<{ key: string; origin: string; request: string; cells: Array<CaseCell | undefined> }>;
  gate?: GateResult;
}

export interface CaseCell {
  rate: string;
  pass: boolean;
  /** The failing checks of the first failing run, or undecided ones. */
  notes: string[];
  /** Each run's trace: a link when a trace URL template is set, else the id. */
  traces: Array<{ id: string; url?: string }>;
  /** The judge's reasons, first run. */
  verdicts: Array<{ criterion: string; pass: boolean; reason: string }>;
}

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;

export function reportModel(
  results: ConfigResult[],
  /** `traceUrls`: each configuration's own (its traces may go to another backend), else `traceUrl`. */
  options: { traceUrl?: string; traceUrls?: Array<string | undefined>; gate?: GateResult },
): ReportModel {
  const keys = [...new Set(results.flatMap((r) => r.cases.map((c) => c.key)))];
  return {
    title: `Evaluation: ${results.map((r) => r.name).join(" vs ")}`,
    summaryHeader: [
      "configuration",
      "pass rate (runs: mean ± sd)",
      "all runs (95% CI)",
      "latency p50 / p95",
      "tokens / run",
      "model calls / run",
      "wall time",
    ],
    configs: results.map(({ name, summary: s }) => ({
      name,
      cells: [
        `${pct(s.passRate.mean)} ± ${pct(s.passRate.stdev)} (${s.runsPerCase} run${s.runsPerCase === 1 ? "" : "s"} of ${s.cases} cases)`,
        `${s.overall.passes}/${s.overall.total} (${pct(s.overall.low)}–${pct(s.overall.high)})`,
        `${(s.latencyP50Ms / 1000).toFixed(2)} s / ${(s.latencyP95Ms / 1000).toFixed(2)} s`,
        s.tokensPerRun === undefined ? "no traces" : s.tokensPerRun.toFixed(0),
        s.modelCallsPerRun === undefined ? "no traces" : s.modelCallsPerRun.toFixed(1),
        `${(s.wallMs / 1000).toFixed(1)} s`,
      ],
    })),
    cases: keys.map((key) => {
      const found = results.map((r) => r.cases.find((c) => c.key === key));
      const first = found.find((c): c is CaseResult => c !== undefined) as CaseResult;
      return {
        key,
        origin: first.origin,
        request: first.request,
        cells: found.map((c, i) => (c ? caseCell(c, options.traceUrls?.[i] ?? options.traceUrl) : undefined)),
      };
    }),
    ...(options.gate ? { gate: options.gate } : {}),
  };
}

function caseCell(c: CaseResult, traceUrl: string | undefined): CaseCell {
  const failing = c.runs.find((run) => !run.pass) ?? c.runs[0];
  const notes = (failing?.checks ?? [])
    .filter((check) => check.pass !== true)
    .map((check) => `${check.check}${check.pass === undefined ? " (undecided)" : ""}: ${check.detail}`);
  return {
    rate: `${c.runs.filter((run) => run.pass).length}/${c.runs.length}`,
    pass: c.passRate === 1,
    notes,
    traces: c.runs.map((run) => ({
      id: run.observation.traceId,
      ...(traceUrl ? { url: traceUrl.replaceAll("{trace_id}", run.observation.traceId) } : {}),
    })),
    verdicts: c.runs[0]?.verdicts ?? [],
  };
}
