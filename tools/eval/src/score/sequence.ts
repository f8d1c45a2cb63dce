import type { MatchMode } from "../case.js";

/**
 * Whether `observed` holds `expected` as `mode` asks: `exact` (these and nothing else, in order),
 * `in-order` (these in order, others between), `any-order` (each of these once, anywhere). The
 * detail names the first expectation that failed, for the report.
 */
export function matchSequence<E, O>(
  expected: readonly E[],
  observed: readonly O[],
  mode: MatchMode,
  matches: (e: E, o: O) => boolean,
  describe: (e: E) => string,
): { pass: boolean; detail: string } {
  if (mode === "exact") {
    for (let i = 0; i < Math.max(expected.length, observed.length); i++) {
      const e = expected[i];
      const o = observed[i];
      if (e === undefined) return { pass: false, detail: `an extra call at position ${i + 1}` };
      if (o === undefined || !matches(e, o))
        return { pass: false, detail: `expected ${describe(e)} at position ${i + 1}` };
    }
    return { pass: true, detail: "exact match" };
  }
  if (mode === "in-order") {
    let from = 0;
    for (const e of expected) {
      const at = observed.findIndex((o, index) => index >= from && matches(e, o));
      if (at < 0)
        return { pass: false, detail: `expected ${describe(e)}${from > 0 ? " after the earlier ones" : ""}` };
      from = at + 1;
    }
    return { pass: true, detail: "in order" };
  }
  const used = new Set<number>();
  for (const e of expected) {
    const at = observed.findIndex((o, index) => !used.has(index) && matches(e, o));
    if (at < 0) return { pass: false, detail: `expected ${describe(e)}` };
    used.add(at);
  }
  return { pass: true, detail: "all present" };
}
