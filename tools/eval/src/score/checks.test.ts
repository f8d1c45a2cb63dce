import { describe, expect, it } from "vitest";
import type { Observation } from "../case.js";
import { argMatches, scoreAnswer, scoreRouting, scoreTools } from "./checks.js";
import { matchSequence } from "./sequence.js";

const seen = (over: Partial<Observation>): Observation => ({
  agents: [],
  tools: [],
  answer: "",
  state: "completed",
  latencyMs: 1,
  traceId: "t",
  source: "traces",
  ...over,
});

describe("sequence matching", () => {
  const eq = (a: string, b: string) => a === b;
  const name = (a: string) => a;
  it("exact: these and nothing else, in order", () => {
    expect(matchSequence(["a", "b"], ["a", "b"], "exact", eq, name).pass).toBe(true);
    expect(matchSequence(["a"], ["a", "b"], "exact", eq, name)).toEqual({
      pass: false,
      detail: "an extra call at position 2",
    });
    expect(matchSequence(["a", "b"], ["b", "a"], "exact", eq, name).pass).toBe(false);
  });
  it("in-order: others between allowed, order kept", () => {
    expect(matchSequence(["a", "c"], ["a", "b", "c"], "in-order", eq, name).pass).toBe(true);
    expect(matchSequence(["c", "a"], ["a", "b", "c"], "in-order", eq, name).pass).toBe(false);
  });
  it("any-order: each once, anywhere", () => {
    expect(matchSequence(["c", "a"], ["a", "b", "c"], "any-order", eq, name).pass).toBe(true);
    expect(matchSequence(["a", "a"], ["a", "b"], "any-order", eq, name).pass).toBe(false);
  });
});

describe("checks", () => {
  it("routing passes on any alternative and names what was asked when none matches", () => {
    const expectation = { alternatives: [["jira"], ["jira", "confluence"]], match: "exact" as const };
    expect(scoreRouting(expectation, seen({ agents: ["jira", "confluence"] }))?.pass).toBe(true);
    expect(scoreRouting(expectation, seen({ agents: ["github"] }))).toEqual({
      check: "routing",
      pass: false,
      detail: "asked github; expected the jira agent at position 1",
    });
  });

  it("tool calls are matched on name, agent and argument matchers", () => {
    const tools = [
      { agent: "jira", name: "search_issues", args: { jql: "project = PLAT ORDER BY key", maxResults: 50 } },
    ];
    const expectation = (args: Record<string, never> | Record<string, unknown>) => ({
      match: "in-order" as const,
      calls: [{ name: "search_issues", agent: "jira", args: args as never }],
    });
    expect(scoreTools(expectation({ jql: { contains: "project = plat" } }), seen({ tools }))?.pass).toBe(
      true,
    );
    expect(scoreTools(expectation({ jql: { regex: "^project = OPS" } }), seen({ tools }))?.pass).toBe(false);
    expect(scoreTools(expectation({ maxResults: { equals: 50 } }), seen({ tools }))?.pass).toBe(true);
    expect(scoreTools(expectation({ startAt: { any: true } }), seen({ tools }))?.pass).toBe(false);
    expect(
      scoreTools({ match: "in-order", calls: [{ name: "search_issues", agent: "github" }] }, seen({ tools }))
        ?.pass,
    ).toBe(false);
  });

  it("without traces, fails a wrong tool by its name and leaves a right one's arguments undecided, rather than guessing", () => {
    const result = scoreTools(
      { match: "in-order", calls: [{ name: "search_issues", args: { jql: { any: true } } }] },
      seen({ source: "events", tools: [{ agent: "jira", name: "search_issues" }] }),
    );
    expect(result?.pass).toBeUndefined();
    expect(result?.detail).toMatch(/the arguments need the fleet's traces/);
    const wrong = scoreTools(
      { match: "in-order", calls: [{ name: "search_issues", args: { jql: { any: true } } }] },
      seen({ source: "events", tools: [{ agent: "jira", name: "get_issue" }] }),
    );
    expect(wrong?.pass).toBe(false);
  });

  it("argument matchers compare JSON values exactly and text case-insensitively", () => {
    expect(argMatches({ equals: { a: [1] } }, { a: [1] }, true)).toBe(true);
    expect(argMatches({ equals: "1" }, 1, true)).toBe(false);
    expect(argMatches({ contains: "PLAT" }, ["plat-1"], true)).toBe(true);
  });

  it("answer checks: contains, not contains, regex, each failure named", () => {
    const check = scoreAnswer(
      { contains: ["PLAT-1"], notContains: ["error"], regex: ["PLAT-\\d+"] },
      seen({ answer: "An error; no issues." }),
    );
    expect(check?.pass).toBe(false);
    expect(check?.detail).toBe('the answer lacks "PLAT-1", has "error", does not match /PLAT-\\d+/');
  });
});
