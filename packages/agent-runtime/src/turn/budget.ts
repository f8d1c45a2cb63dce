import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { LLMResult } from "@langchain/core/outputs";

/**
 * What a caller allows one turn to spend on the model, and with it every subagent the turn reaches
 * (the supervisor passes on what is left when it hops): `X-Switchboard-Budget: model_calls=20,
 * tokens=50000`. A caller only ever limits its own turn, so the header needs no authority of its own;
 * a triggered run sends its task's `budget` (tools/triggers).
 */
export const BUDGET_HEADER = "X-Switchboard-Budget";

/**
 * Where a turn's spend goes back to its caller, on every binding: the metadata of the turn's last
 * status update (which the stored task's metadata takes too), `{ "model_calls": n, "tokens": n }`,
 * its subagents' spend included. A caller charges it to its own turn (`TurnBudget.charge`).
 */
export const SPEND_METADATA_KEY = "switchboard/spend";

export interface Budget {
  modelCalls?: number;
  tokens?: number;
}

/** What one turn spent on the model, its subagents' turns included. */
export interface Spend {
  modelCalls: number;
  tokens: number;
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

/** A spend as it goes in SPEND_METADATA_KEY. */
export function spendMetadata(spend: Spend): Record<string, unknown> {
  return { [SPEND_METADATA_KEY]: { model_calls: spend.modelCalls, tokens: spend.tokens } };
}

/**
 * What a caller charges a hop: the subagent's report where it is a whole number no larger than what
 * was passed on; otherwise (negative, missing, not a number, more than it was given) all that was
 * passed on. A report is only ever subtracted, so lying gains a subagent nothing: its own cap
 * bounded what it could spend, and the caller counts that cap unless told less. Without a limit to
 * fall back on, a report that is not a whole number counts as nothing (there is nothing to stop).
 */
export function chargedSpend(passedOn: Budget, reported: unknown): Spend {
  const report = (typeof reported === "object" && reported !== null ? reported : {}) as Record<
    string,
    unknown
  >;
  const charge = (said: unknown, cap: number | undefined): number => {
    const sound = typeof said === "number" && Number.isSafeInteger(said) && said >= 0;
    if (cap === undefined) return sound ? said : 0;
    return sound && said <= cap ? said : cap;
  };
  return {
    modelCalls: charge(report.model_calls, passedOn.modelCalls),
    tokens: charge(report.tokens, passedOn.tokens),
  };
}

/** A turn's budget as a hop sees it (TurnContext.budget): what to pass on, and what to charge after. */
export interface HopBudget {
  /** Whether the caller set any limit (only then is a budget passed on). */
  readonly limited: boolean;
  /** What is left, for a subagent this turn reaches. */
  remaining(): Budget;
  /** Whether anything is left for a hop to `agent`: if not, the turn is stopped, saying so. */
  beforeHop(agent: string): boolean;
  /** Charges a hop's reported spend (chargedSpend) to the turn; past the budget the turn is stopped. */
  charge(agent: string, passedOn: Budget, reported: unknown): void;
}

interface Usage {
  usage_metadata?: { input_tokens?: number; output_tokens?: number; total_tokens?: number };
}

/**
 * Counts one turn's model calls and tokens, from LangChain's callbacks (every graph's model calls
 * pass them), with what its hops reported charged on top; the sum goes back to the caller
 * (SPEND_METADATA_KEY). Against a caller's budget: a call past it is not made (`stop` ends the turn
 * with why: the executor aborts it and fails the task with that sentence), a call that takes the
 * tokens over ends it as soon as it returns, and a hop with nothing left is not made.
 */
export class TurnBudget extends BaseCallbackHandler implements HopBudget {
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

  get limited(): boolean {
    return this.budget.modelCalls !== undefined || this.budget.tokens !== undefined;
  }

  remaining(): Budget {
    return {
      ...(this.budget.modelCalls !== undefined
        ? { modelCalls: Math.max(0, this.budget.modelCalls - this.calls) }
        : {}),
      ...(this.budget.tokens !== undefined ? { tokens: Math.max(0, this.budget.tokens - this.spent) } : {}),
    };
  }

  /** What the turn spent so far, its hops' charges included. */
  spend(): Spend {
    return { modelCalls: this.calls, tokens: this.spent };
  }

  override handleChatModelStart(): void {
    if (this.ended) return;
    const { modelCalls: max, tokens } = this.budget;
    if (max !== undefined && this.calls >= max)
      this.end(
        `The run was ended at its budget of model calls (${max} more were left to the ${this.agent} agent, its subagents' calls included; the task's budget.model_calls), and nothing more was done.`,
      );
    else if (tokens !== undefined && this.spent >= tokens)
      this.end(
        `The run was ended at its budget of tokens: the ${tokens} left to the ${this.agent} agent were spent, its subagents' included (the task's budget.tokens), and nothing more was done.`,
      );
    // A call refused is not made, so not counted.
    else this.calls += 1;
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

  beforeHop(agent: string): boolean {
    const left = this.remaining();
    if (left.modelCalls === 0)
      this.end(
        `The run was ended at its budget of model calls before its hop to the ${agent} agent: the ${this.budget.modelCalls} left to the ${this.agent} agent were spent, its subagents' calls included (the task's budget.model_calls), and nothing more was done.`,
      );
    else if (left.tokens === 0)
      this.end(
        `The run was ended at its budget of tokens before its hop to the ${agent} agent: the ${this.budget.tokens} left to the ${this.agent} agent were spent, its subagents' included (the task's budget.tokens), and nothing more was done.`,
      );
    return !this.ended;
  }

  charge(agent: string, passedOn: Budget, reported: unknown): void {
    const charged = chargedSpend(passedOn, reported);
    this.calls += charged.modelCalls;
    this.spent += charged.tokens;
    // Past the budget only when hops made at once each spent what they were given.
    const { modelCalls, tokens } = this.budget;
    if (modelCalls !== undefined && this.calls > modelCalls)
      this.end(
        `The run was ended at its budget of model calls: with the ${agent} agent's ${charged.modelCalls}, the ${this.agent} agent's turn spent ${this.calls} of the ${modelCalls} it had (the task's budget.model_calls), and nothing more was done.`,
      );
    else if (tokens !== undefined && this.spent > tokens)
      this.end(
        `The run was ended: with the ${agent} agent's ${charged.tokens}, the ${this.agent} agent's turn used ${this.spent} model tokens, over the ${tokens} left of its budget (the task's budget.tokens), and nothing more was done.`,
      );
  }

  private end(why: string): void {
    if (this.ended) return;
    this.ended = true;
    this.stop(why);
  }
}
