import type { ConfigResult } from "./evaluate.js";

export interface GateResult {
  pass: boolean;
  /** One line for CI's log: what was compared and by how much. */
  reason: string;
}

/**
 * The CI gate: `candidate` fails when its pass rate is more than `maxDrop` (0–1, absolute) below
 * `baseline`'s, over the cases both ran (a case one side lacks does not count either way).
 */
export function gate(baseline: ConfigResult, candidate: ConfigResult, maxDrop: number): GateResult {
  const shared = new Set(
    baseline.cases.map((c) => c.key).filter((key) => candidate.cases.some((c) => c.key === key)),
  );
  const rate = (result: ConfigResult) => {
    const runs = result.cases.filter((c) => shared.has(c.key)).flatMap((c) => c.runs);
    return runs.length ? runs.filter((run) => run.pass).length / runs.length : 0;
  };
  const before = rate(baseline);
  const after = rate(candidate);
  const drop = before - after;
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  const words = `${candidate.name} passes ${pct(after)} of ${shared.size} cases' runs, ${baseline.name} ${pct(before)}`;
  // A small epsilon, so a drop exactly at the margin (0.1 - 0.05 in floating point) is allowed.
  return drop > maxDrop + 1e-9
    ? {
        pass: false,
        reason: `${words}: a drop of ${pct(drop)}, more than the ${pct(maxDrop)} allowed (--max-drop).`,
      }
    : { pass: true, reason: `${words}: within the ${pct(maxDrop)} allowed.` };
}
