import type { EvalCase } from "./case.js";
import { runOnce, type Target } from "./run/run-case.js";
import type { Judge } from "./score/judge.js";
import { type RunScore, scoreRun } from "./score/score-run.js";
import { percentile, type Spread, spread, wilson } from "./score/stats.js";

export interface CaseResult {
  key: string;
  id: string;
  set: string;
  origin: string;
  request: string;
  runs: RunScore[];
  /** Passing runs over runs. */
  passRate: number;
  latencyMs: Spread;
  /** Undefined when no run had traces. */
  tokens?: Spread;
  modelCalls?: Spread;
}

export interface Summary {
  cases: number;
  runsPerCase: number;
  /** The set's pass rate in each run (run 1 of every case, run 2 …): mean, spread, range. */
  passRate: Spread;
  /** Every case run together, with Wilson's 95% interval. */
  overall: { passes: number; total: number; rate: number; low: number; high: number };
  latencyP50Ms: number;
  latencyP95Ms: number;
  /** Per case run, where traces told them. */
  tokensPerRun?: number;
  modelCallsPerRun?: number;
  wallMs: number;
}

export interface ConfigResult {
  name: string;
  cases: CaseResult[];
  summary: Summary;
}

export interface EvaluateOptions {
  runs: number;
  /** Case runs at once. */
  concurrency: number;
  judge?: Judge;
  onRun?: (c: EvalCase, run: number, score: RunScore) => void;
}

/** Every case `runs` times against one configuration, `concurrency` at a time, scored. */
export async function evaluate(
  name: string,
  cases: EvalCase[],
  target: Target,
  options: EvaluateOptions,
): Promise<ConfigResult> {
  const started = performance.now();
  const scores: RunScore[][] = cases.map(() => []);
  const jobs = cases.flatMap((c, index) =>
    Array.from({ length: options.runs }, (_, run) => ({ c, index, run })),
  );
  let next = 0;
  const worker = async () => {
    for (let job = jobs[next++]; job; job = jobs[next++]) {
      const score = await scoreRun(job.c, await runOnce(job.c, target), options.judge);
      (scores[job.index] as RunScore[])[job.run] = score;
      options.onRun?.(job.c, job.run, score);
    }
  };
  // Vendors recorded or replayed know a request's case by the one running: one case at a time.
  const concurrency = target.vendors ? 1 : options.concurrency;
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, jobs.length)) }, worker));
  const results = cases.map((c, index) => caseResult(c, scores[index] as RunScore[]));
  return { name, cases: results, summary: summarize(results, options.runs, performance.now() - started) };
}

function caseResult(c: EvalCase, runs: RunScore[]): CaseResult {
  const traced = runs.filter((run) => run.observation.source === "traces");
  return {
    key: c.key,
    id: c.id,
    set: c.set,
    origin: c.origin,
    request: c.messages.join("\n"),
    runs,
    passRate: runs.filter((run) => run.pass).length / runs.length,
    latencyMs: spread(runs.map((run) => run.observation.latencyMs)),
    ...(traced.length
      ? {
          tokens: spread(
            traced.map((run) => (run.observation.tokens?.input ?? 0) + (run.observation.tokens?.output ?? 0)),
          ),
          modelCalls: spread(traced.map((run) => run.observation.modelCalls ?? 0)),
        }
      : {}),
  };
}

export function summarize(results: CaseResult[], runsPerCase: number, wallMs: number): Summary {
  const perRun = Array.from({ length: runsPerCase }, (_, run) => {
    const decided = results.filter((r) => r.runs[run]);
    return decided.length ? decided.filter((r) => r.runs[run]?.pass).length / decided.length : 0;
  });
  const all = results.flatMap((r) => r.runs);
  const passes = all.filter((run) => run.pass).length;
  const interval = wilson(passes, all.length);
  const latencies = all.map((run) => run.observation.latencyMs);
  const traced = all.filter((run) => run.observation.source === "traces");
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  return {
    cases: results.length,
    runsPerCase,
    passRate: spread(perRun),
    overall: { passes, total: all.length, rate: all.length ? passes / all.length : 0, ...interval },
    latencyP50Ms: percentile(latencies, 50),
    latencyP95Ms: percentile(latencies, 95),
    ...(traced.length
      ? {
          tokensPerRun: mean(
            traced.map((run) => (run.observation.tokens?.input ?? 0) + (run.observation.tokens?.output ?? 0)),
          ),
          modelCallsPerRun: mean(traced.map((run) => run.observation.modelCalls ?? 0)),
        }
      : {}),
    wallMs,
  };
}
