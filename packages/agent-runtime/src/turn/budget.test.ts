import type { LLMResult } from "@langchain/core/outputs";
import { describe, expect, it } from "vitest";
import { budgetIn, formatBudget, TurnBudget } from "./budget.js";

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
});
