import type { LLMResult } from "@langchain/core/outputs";
import { describe, expect, it } from "vitest";
import {
  budgetIn,
  chargedSpend,
  formatBudget,
  SPEND_METADATA_KEY,
  spendMetadata,
  TurnBudget,
} from "./budget.js";

const used = (total: number) =>
  ({
    generations: [[{ text: "", message: { usage_metadata: { total_tokens: total } } }]],
  }) as unknown as LLMResult;

describe("a turn's budget", () => {
  it("is read from its header as written, ignoring what it does not know", () => {
    const header = formatBudget({ modelCalls: 3, tokens: 500 });
    expect(header).toBe("model_calls=3, tokens=500");
    expect(budgetIn({ "x-switchboard-budget": header })).toEqual({ modelCalls: 3, tokens: 500 });
    expect(budgetIn({ "x-switchboard-budget": "model_calls=-1, tokens=lots, dollars=5" })).toBeUndefined();
    expect(budgetIn({})).toBeUndefined();
  });

  it("stops the turn at the call past its model calls, once, and passes on what is left", () => {
    const stops: string[] = [];
    const budget = new TurnBudget("jira", { modelCalls: 2, tokens: 100 }, (why) => stops.push(why));
    budget.handleChatModelStart();
    budget.handleLLMEnd(used(30));
    expect(budget.remaining()).toEqual({ modelCalls: 1, tokens: 70 });
    budget.handleChatModelStart();
    expect(stops).toHaveLength(0);
    budget.handleChatModelStart();
    budget.handleChatModelStart();
    expect(stops).toEqual([
      expect.stringMatching(/budget of model calls \(2 more were left to the jira agent/),
    ]);
    expect(budget.remaining()).toEqual({ modelCalls: 0, tokens: 70 });
  });

  it("stops the turn when a call takes its tokens over", () => {
    const stops: string[] = [];
    const budget = new TurnBudget("supervisor", { tokens: 50 }, (why) => stops.push(why));
    budget.handleLLMEnd(used(40));
    expect(stops).toHaveLength(0);
    budget.handleLLMEnd(used(20));
    expect(stops).toEqual([expect.stringMatching(/used 60 model tokens, over the 50 left/)]);
  });

  it("charges a hop what its subagent reports, when that is a whole number within what it was given", () => {
    expect(chargedSpend({ modelCalls: 5, tokens: 900 }, { model_calls: 2, tokens: 300 })).toEqual({
      modelCalls: 2,
      tokens: 300,
    });
    // No limit to fall back on: a sound report still counts (it goes on up), an unsound one as nothing.
    expect(chargedSpend({}, { model_calls: 2, tokens: 300 })).toEqual({ modelCalls: 2, tokens: 300 });
    expect(chargedSpend({}, { model_calls: -2, tokens: "300" })).toEqual({ modelCalls: 0, tokens: 0 });
  });

  it("charges a lying, silent or absurd subagent all it was given: a report is only ever subtracted", () => {
    const given = { modelCalls: 4, tokens: 1_000 };
    const lies: unknown[] = [
      undefined,
      null,
      "model_calls=0",
      [],
      { model_calls: -100, tokens: -1e9 },
      { model_calls: 1.5, tokens: Number.NaN },
      { model_calls: 1e300, tokens: Number.POSITIVE_INFINITY },
      { model_calls: 5, tokens: 1_001 },
      { model_calls: "1", tokens: { valueOf: () => 1 } },
    ];
    for (const lie of lies) expect(chargedSpend(given, lie)).toEqual(given);
    // Half a lie: the sound half counts, the other is charged in full.
    expect(chargedSpend(given, { model_calls: 1, tokens: -5 })).toEqual({ modelCalls: 1, tokens: 1_000 });
  });

  it("adds each hop's charge to the turn's spend, which goes back to the caller under its key", () => {
    const budget = new TurnBudget("supervisor", {}, () => {
      throw new Error("a turn without limits is never stopped");
    });
    expect(budget.limited).toBe(false);
    budget.handleChatModelStart();
    budget.handleLLMEnd(used(40));
    budget.charge("jira", budget.remaining(), { model_calls: 2, tokens: 100 });
    expect(spendMetadata(budget.spend())).toEqual({ [SPEND_METADATA_KEY]: { model_calls: 3, tokens: 140 } });
  });

  it("stops the turn before a hop when nothing is left for it, and before a call when the tokens are spent", () => {
    const stops: string[] = [];
    const budget = new TurnBudget("supervisor", { modelCalls: 4, tokens: 500 }, (why) => stops.push(why));
    budget.handleChatModelStart();
    const passedOn = budget.remaining();
    expect(passedOn).toEqual({ modelCalls: 3, tokens: 500 });
    expect(budget.beforeHop("jira")).toBe(true);
    // A subagent that says it spent nothing still gets charged its cap when it says so in a lie.
    budget.charge("jira", passedOn, { model_calls: -1 });
    expect(budget.remaining()).toEqual({ modelCalls: 0, tokens: 0 });
    expect(stops).toHaveLength(0);
    expect(budget.beforeHop("jira")).toBe(false);
    expect(stops).toEqual([expect.stringMatching(/budget of model calls before its hop to the jira agent/)]);

    const tokens: string[] = [];
    const few = new TurnBudget("supervisor", { tokens: 100 }, (why) => tokens.push(why));
    few.charge("jira", few.remaining(), { tokens: 100 });
    few.handleChatModelStart();
    expect(tokens).toEqual([
      expect.stringMatching(/budget of tokens: the 100 left to the supervisor agent were spent/),
    ]);
    expect(few.spend().modelCalls).toBe(0);
  });

  it("stops the turn when hops made at once together spend past it", () => {
    const stops: string[] = [];
    const budget = new TurnBudget("supervisor", { modelCalls: 5 }, (why) => stops.push(why));
    budget.handleChatModelStart();
    const passedOn = budget.remaining();
    budget.charge("jira", passedOn, { model_calls: 3 });
    expect(stops).toHaveLength(0);
    budget.charge("github", passedOn, { model_calls: 3 });
    expect(stops).toEqual([
      expect.stringMatching(/with the github agent's 3, the supervisor agent's turn spent 7 of the 5/),
    ]);
  });
});
