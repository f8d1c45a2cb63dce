/** One case as the harness runs it, whichever file format it came from. */
export interface EvalCase {
  /** `<set>/<id>`: unique across every set of a run. */
  key: string;
  id: string;
  set: string;
  /** User messages, sent one after the other in one conversation. */
  messages: string[];
  /** The agent the messages go to: `supervisor` unless the case names another. */
  target: string;
  expect: CaseExpectations;
  /** Where it came from, for a reader of the report (a file, or CAIPE's path at its commit). */
  origin: string;
  /** Each vendor's state for this case, for the fakes that stand in for them (their seed format). */
  vendors?: Record<string, unknown>;
}

export type MatchMode = "exact" | "in-order" | "any-order";

export type ArgMatcher = { contains: string } | { regex: string } | { any: true } | { equals: unknown };

export interface ToolCallExpectation {
  name: string;
  agent?: string;
  args?: Record<string, ArgMatcher>;
}

export interface CaseExpectations {
  /** Alternatives: routing passes when any one matches (CAIPE's trajectories list several solutions). */
  agents?: { alternatives: string[][]; match: MatchMode };
  tools?: { calls: ToolCallExpectation[]; match: MatchMode };
  answer?: { contains?: string[]; notContains?: string[]; regex?: string[] };
  rubric?: string[];
  /** What a person expects, kept for the judge and the report (CAIPE's expected_output/behavior). */
  reference?: string;
}

/** What one run of a case was seen doing. */
export interface Observation {
  /** Agents asked, in order (a subagent asked twice appears twice). */
  agents: string[];
  /** Tool calls in order; `args` only where traces carried them. */
  tools: Array<{ agent: string; name: string; args?: Record<string, unknown> }>;
  /** The final answer's text (the last message's turn). */
  answer: string;
  state: string;
  latencyMs: number;
  /** From traces; undefined when the fleet exported none for the run. */
  modelCalls?: number;
  tokens?: { input: number; output: number };
  traceId: string;
  /** Where routing and tools were read from. */
  source: "traces" | "events";
  /** The run did not finish (unreachable, timeout): scored as failing on every point. */
  error?: string;
}
