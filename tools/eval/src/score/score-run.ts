import type { EvalCase, Observation } from "../case.js";
import { type CheckResult, scoreAnswer, scoreRouting, scoreTools } from "./checks.js";
import type { Judge, Verdict } from "./judge.js";

/** One run of a case, scored. */
export interface RunScore {
  observation: Observation;
  checks: CheckResult[];
  verdicts?: Verdict[];
  /** Every decided check passed (an undecided one, such as a rubric with no judge, does not fail it). */
  pass: boolean;
}

export async function scoreRun(c: EvalCase, seen: Observation, judge: Judge | undefined): Promise<RunScore> {
  if (seen.error) {
    const checks: CheckResult[] = [{ check: "run", pass: false, detail: seen.error }];
    return { observation: seen, checks, pass: false };
  }
  const checks = [
    scoreRouting(c.expect.agents, seen),
    scoreTools(c.expect.tools, seen),
    scoreAnswer(c.expect.answer, seen),
  ].filter((check): check is CheckResult => check !== undefined);
  let verdicts: Verdict[] | undefined;
  const rubric = c.expect.rubric;
  if (rubric?.length) {
    if (!judge)
      checks.push({
        check: "rubric",
        pass: undefined,
        detail: "not judged: no judge model is configured (EVAL_JUDGE_LLM_PROVIDER)",
      });
    else {
      try {
        verdicts = await judge.judge({
          request: c.messages.join("\n"),
          answer: seen.answer,
          criteria: rubric,
          ...(c.expect.reference ? { reference: c.expect.reference } : {}),
        });
        const failed = verdicts.filter((v) => !v.pass);
        checks.push({
          check: "rubric",
          pass: failed.length === 0,
          detail: failed.length
            ? failed.map((v) => `${v.criterion}: ${v.reason}`).join("; ")
            : `${verdicts.length} criteria met`,
        });
      } catch (error) {
        // A judge that could not be reached decides nothing, and says why.
        checks.push({
          check: "rubric",
          pass: false,
          detail: `the judge failed: ${(error as Error).message}`,
        });
      }
    }
  }
  return {
    observation: seen,
    checks,
    ...(verdicts ? { verdicts } : {}),
    pass: checks.every((check) => check.pass !== false),
  };
}
