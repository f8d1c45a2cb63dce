import {
  lastMessage,
  lastUserText,
  messageText,
  offeredToolNames,
  systemText,
  type ToolResult,
  trailingToolResults,
} from "./conversation.js";
import type { ChatCompletionRequest, Script, ScriptReply } from "./types.js";

/** A string matches text as a case-insensitive substring and names exactly; a RegExp is tested. */
export type Matcher = string | RegExp;

/** Every condition given must hold; a rule with none matches any request. */
export interface Condition {
  /** The last message is from the user and its text matches (earlier user turns never match). */
  lastUser?: Matcher;
  /** The last message is a tool result from this tool (`true`: from any tool). */
  afterTool?: Matcher | true;
  /** The last message is a tool result whose content matches. */
  toolResult?: Matcher;
  /** The system prompt matches: lets agents that share one server get different scripts. */
  system?: Matcher;
  /** The request offers a tool of this name. */
  toolOffered?: Matcher;
  /** The requested model matches. */
  model?: Matcher;
  /** Anything else. */
  test?: (request: ChatCompletionRequest) => boolean;
}

export interface RuleContext {
  /** The match of the rule's `lastUser` (or else `toolResult`) matcher; `[whole, ...groups]`. */
  match: RegExpExecArray | null;
  /** The newest user message's text. */
  userText: string;
  /** The tool results that end the conversation (empty unless the last message is a tool result). */
  toolResults: ToolResult[];
}

export type RuleReply =
  | ScriptReply
  | ((request: ChatCompletionRequest, context: RuleContext) => ScriptReply | Promise<ScriptReply>);

/**
 * Conditions may sit in `when` or beside `reply`: `{ lastUser: /x/, reply }` is `{ when: { lastUser: /x/ }, reply }`.
 * (Not `then`: an object with a `then` function is a thenable, and awaiting a rule would call it.)
 */
export type Rule = Condition & { when?: Condition; reply: RuleReply };

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function matchText(matcher: Matcher, text: string): RegExpExecArray | null {
  const regex =
    typeof matcher === "string"
      ? new RegExp(escapeRegExp(matcher), "i")
      : new RegExp(matcher.source, matcher.flags.replace(/[gy]/g, ""));
  return regex.exec(text);
}

function matchName(matcher: Matcher, name: string): boolean {
  return typeof matcher === "string" ? matcher === name : matchText(matcher, name) !== null;
}

/** Returns the rule's context when every condition holds, else undefined. */
function evaluate(condition: Condition, request: ChatCompletionRequest): RuleContext | undefined {
  const last = lastMessage(request);
  const toolResults = trailingToolResults(request);
  const context: RuleContext = { match: null, userText: lastUserText(request) ?? "", toolResults };

  if (condition.lastUser !== undefined) {
    if (last?.role !== "user") return undefined;
    context.match = matchText(condition.lastUser, messageText(last.content));
    if (!context.match) return undefined;
  }
  if (condition.afterTool !== undefined) {
    const wanted = condition.afterTool;
    if (toolResults.length === 0) return undefined;
    if (wanted !== true && !toolResults.some((r) => matchName(wanted, r.name))) return undefined;
  }
  if (condition.toolResult !== undefined) {
    const matcher = condition.toolResult;
    const match = toolResults.map((r) => matchText(matcher, r.content)).find((m) => m !== null) ?? null;
    if (!match) return undefined;
    context.match ??= match;
  }
  if (condition.system !== undefined && !matchText(condition.system, systemText(request))) return undefined;
  if (condition.toolOffered !== undefined) {
    const matcher = condition.toolOffered;
    if (!offeredToolNames(request).some((name) => matchName(matcher, name))) return undefined;
  }
  if (condition.model !== undefined && !matchName(condition.model, request.model)) return undefined;
  if (condition.test !== undefined && !condition.test(request)) return undefined;
  return context;
}

function describeLast(request: ChatCompletionRequest): string {
  const last = lastMessage(request);
  if (!last) return "no messages";
  const text = messageText(last.content ?? "");
  return `${last.role} message ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text)}`;
}

/**
 * A script from rules tried in order; the first whose conditions all hold decides the reply.
 * When none does, `otherwise` answers. The default says which message matched nothing: a text reply
 * rather than an error, so the test fails on its assertion with that text instead of on client retries.
 */
export function rules(list: Rule[], otherwise?: RuleReply): Script {
  return async (request) => {
    for (const rule of list) {
      const { when, reply, ...inline } = rule;
      const context = evaluate({ ...inline, ...when }, request);
      if (context) return typeof reply === "function" ? reply(request, context) : reply;
    }
    const context: RuleContext = {
      match: null,
      userText: lastUserText(request) ?? "",
      toolResults: trailingToolResults(request),
    };
    if (otherwise !== undefined)
      return typeof otherwise === "function" ? otherwise(request, context) : otherwise;
    return { content: `test-llm: no rule matched the last ${describeLast(request)}` };
  };
}
