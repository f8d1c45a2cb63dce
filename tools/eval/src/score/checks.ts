import { isDeepStrictEqual } from "node:util";
import type { ArgMatcher, CaseExpectations, Observation, ToolCallExpectation } from "../case.js";
import { matchSequence } from "./sequence.js";

export type CheckName = "routing" | "tools" | "answer" | "rubric" | "run";

/** One point a run is scored on; `pass: undefined` when it could not be decided (no judge, no traces). */
export interface CheckResult {
  check: CheckName;
  pass: boolean | undefined;
  detail: string;
}

/** Routing: any one of the alternatives, matched as the case asks. */
export function scoreRouting(expect: CaseExpectations["agents"], seen: Observation): CheckResult | undefined {
  if (!expect) return undefined;
  const results = expect.alternatives.map((agents) =>
    matchSequence(
      agents,
      seen.agents,
      expect.match,
      (e, o) => e === o,
      (e) => `the ${e} agent`,
    ),
  );
  const passed = results.find((r) => r.pass);
  const asked = seen.agents.length ? seen.agents.join(" → ") : "no agent";
  return passed
    ? { check: "routing", pass: true, detail: `asked ${asked}` }
    : { check: "routing", pass: false, detail: `asked ${asked}; ${results[0]?.detail ?? "no alternative"}` };
}

/**
 * Tool trajectory: names, agents and argument matchers. Arguments are in traces only: read from
 * status updates, the names still decide a failure, but a match is left undecided, not passed.
 */
export function scoreTools(expect: CaseExpectations["tools"], seen: Observation): CheckResult | undefined {
  if (!expect) return undefined;
  const made = seen.tools.length ? seen.tools.map((t) => `${t.agent}.${t.name}`).join(", ") : "no tool";
  const argsUnseen =
    seen.source !== "traces" && expect.calls.some((call) => call.args && Object.keys(call.args).length > 0);
  const calls = argsUnseen ? expect.calls.map(({ args: _args, ...call }) => call) : expect.calls;
  const result = matchSequence(calls, seen.tools, expect.match, callMatches, describeCall);
  if (!result.pass) return { check: "tools", pass: false, detail: `called ${made}; ${result.detail}` };
  return argsUnseen
    ? {
        check: "tools",
        pass: undefined,
        detail: `called ${made}; the arguments need the fleet's traces (OTLP to the eval's receiver, EVAL_OTLP_PORT)`,
      }
    : { check: "tools", pass: true, detail: `called ${made}` };
}

function callMatches(e: ToolCallExpectation, o: Observation["tools"][number]): boolean {
  if (e.name !== o.name) return false;
  if (e.agent && e.agent !== o.agent) return false;
  return Object.entries(e.args ?? {}).every(([name, matcher]) =>
    argMatches(matcher, o.args?.[name], o.args !== undefined && name in o.args),
  );
}

export function argMatches(matcher: ArgMatcher, value: unknown, present: boolean): boolean {
  if ("any" in matcher) return present;
  if (!present) return false;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if ("contains" in matcher) return text.toLowerCase().includes(matcher.contains.toLowerCase());
  if ("regex" in matcher) return new RegExp(matcher.regex).test(text);
  return isDeepStrictEqual(value, matcher.equals);
}

function describeCall(e: ToolCallExpectation): string {
  const args = e.args ? ` with ${JSON.stringify(e.args)}` : "";
  return `${e.agent ? `${e.agent}.` : ""}${e.name}${args}`;
}

/** The answer's text checks: contains, not contains, regex. */
export function scoreAnswer(expect: CaseExpectations["answer"], seen: Observation): CheckResult | undefined {
  if (!expect) return undefined;
  const answer = seen.answer.toLowerCase();
  const missing = (expect.contains ?? []).filter((text) => !answer.includes(text.toLowerCase()));
  const unwanted = (expect.notContains ?? []).filter((text) => answer.includes(text.toLowerCase()));
  const unmatched = (expect.regex ?? []).filter((source) => !new RegExp(source).test(seen.answer));
  const problems = [
    ...missing.map((t) => `lacks "${t}"`),
    ...unwanted.map((t) => `has "${t}"`),
    ...unmatched.map((r) => `does not match /${r}/`),
  ];
  return {
    check: "answer",
    pass: problems.length === 0,
    detail: problems.length ? `the answer ${problems.join(", ")}` : "ok",
  };
}
