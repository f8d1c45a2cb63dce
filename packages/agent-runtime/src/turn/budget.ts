import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { LLMResult } from "@langchain/core/outputs";

/**
 * What a caller allows one turn to spend on the model, and with it every subagent the turn reaches
 * (the supervisor passes on what is left when it hops): `X-Switchboard-Budget: model_calls=20,
 * tokens=50000`. A caller only ever limits its own turn, so the header needs no authority of its own;
 * a triggered run sends its task's `budget` (tools/triggers).
 */
export const BUDGET_HEADER = "X-Switchboard-Budget";

export interface Budget {
  modelCalls?: number;
  tokens?: number;
}

/** The header's value for a budget. */
export function formatBudget(budget: Budget): string {
  return [
    budget.modelCalls !== undefined ? `model_calls=${budget.modelCalls}` : "",
    budget.tokens !== undefined ? `tokens=${budget.tokens}` : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/** The budget a request's headers name (lower-cased names, as Node gives them), if any. */
export function budgetIn(headers: Record<string, unknown> | undefined): Budget | undefined {
  const value = headers?.[BUDGET_HEADER.toLowerCase()];
  if (typeof value !== "string") return undefined;
  const budget: Budget = {};
  for (const part of value.split(",")) {
    const [name, amount] = part.split("=").map((one) => one.trim());
    if (!amount || !/^\d{1,12}$/.test(amount)) continue;
    if (name === "model_calls") budget.modelCalls = Number(amount);
    if (name === "tokens") budget.tokens = Number(amount);
  }
  return budget.modelCalls === undefined && budget.tokens === undefined ? undefined : budget;
}

interface Usage {
  usage_metadata?: { input_tokens?: number; output_tokens?: number; total_tokens?: number };
}

/**
 * Counts one turn's model calls and tokens against its budget, from LangChain's callbacks (every
 * graph's model calls pass them). A call past the budget is not made: `stop` ends the turn with why
 * (the executor aborts it and fails the task with that sentence), and a call that takes the tokens
 * over ends it as soon as it returns.
 */
export class TurnBudget extends BaseCallbackHandler {
  readonly name = "switchboard-turn-budget";
  private calls = 0;
  private spent = 0;
  private ended = false;

  constructor(
    private readonly agent: string,
    private readonly budget: Budget,
    private readonly stop: (why: string) => void,
  ) {
    super();
  }

  /** What is left, for a subagent this turn reaches. */
  remaining(): Budget {
    return {
      ...(this.budget.modelCalls !== undefined
        ? { modelCalls: Math.max(0, this.budget.modelCalls - this.calls) }
        : {}),
      ...(this.budget.tokens !== undefined ? { tokens: Math.max(0, this.budget.tokens - this.spent) } : {}),
    };
  }

  override handleChatModelStart(): void {
    const max = this.budget.modelCalls;
    if (max !== undefined && this.calls >= max)
      this.end(
        `The run was ended at its budget of model calls (${max} more were left to the ${this.agent} agent; the task's budget.model_calls), and nothing more was done.`,
      );
    this.calls += 1;
  }

  override handleLLMEnd(output: LLMResult): void {
    const generation = output.generations[0]?.[0] as { message?: Usage } | undefined;
    const usage = generation?.message?.usage_metadata;
    this.spent += usage?.total_tokens ?? (usage?.input_tokens ?? 0) + (usage?.output_tokens ?? 0);
    const max = this.budget.tokens;
    if (max !== undefined && this.spent > max)
      this.end(
        `The run was ended: the ${this.agent} agent used ${this.spent} model tokens, over the ${max} left of its budget (the task's budget.tokens), and nothing more was done.`,
      );
  }

  private end(why: string): void {
    if (this.ended) return;
    this.ended = true;
    this.stop(why);
  }
}
