import {
  lastToolResult,
  lastUserText,
  messageText,
  type ToolResult,
  textToSummarize,
  trailingToolResults,
} from "./conversation.js";
import type { ChatCompletionRequest, Script, ScriptReply } from "./types.js";

/** A text reply. */
export function say(content: string): ScriptReply {
  return { content };
}

/** A reply that calls one tool (the server generates the call id). */
export function callTool(name: string, args: Record<string, unknown> = {}): ScriptReply {
  return { toolCalls: [{ name, args }] };
}

/**
 * Answers with text holding the tool results that end the conversation (all of them, after parallel
 * calls), so a test can check the agent's answer came from its tool. Default text:
 * `<tool> returned: <content>` per result, one per line.
 */
export function replyFromToolResult(
  format?: (results: ToolResult[], request: ChatCompletionRequest) => string,
): Script {
  return (request) => {
    let results = trailingToolResults(request);
    if (results.length === 0) {
      const last = lastToolResult(request);
      if (last) results = [last];
    }
    if (results.length === 0) {
      throw new Error(
        "replyFromToolResult: the conversation holds no tool result; use it only after a tool call (e.g. in a rule with afterTool)",
      );
    }
    const text = format
      ? format(results, request)
      : results.map((r) => `${r.name || "tool"} returned: ${r.content}`).join("\n");
    return { content: text };
  };
}

/** Repeats the newest user message, prefixed; a minimal script for plumbing tests and benchmarks. */
export function echo(prefix = "echo: "): Script {
  return (request) => ({ content: prefix + (lastUserText(request) ?? "") });
}

/**
 * Lists every user message the model was sent, oldest first and joined by ` | `: lets a test see
 * what history an agent loaded for a conversation.
 */
export function recallUserMessages(prefix = "You asked: "): Script {
  return (request) => ({
    content:
      prefix +
      request.messages
        .filter((message) => message.role === "user")
        .map((message) => messageText(message.content))
        .join(" | "),
  });
}

/**
 * Replies with each step in turn, one per request; a step is a reply or a script. Shared by every
 * caller of the server, so give concurrent tests their own server. Runs out with a clear error.
 */
export function sequence(...steps: (ScriptReply | Script)[]): Script {
  let next = 0;
  return (request) => {
    const step = steps[next];
    if (step === undefined) {
      throw new Error(`sequence ran out: it has ${steps.length} replies and got request ${next + 1}`);
    }
    next += 1;
    return typeof step === "function" ? step(request) : step;
  };
}

/**
 * Answers a summary request (see `isSummaryRequest`) with every distinct match of `pattern` in the
 * text it summarizes, in order of first appearance: a summary a test can check for what it carried
 * over, the matches in an earlier summary included.
 */
export function summarizeMatches(pattern: RegExp, prefix = "Mentioned so far: "): Script {
  const global = new RegExp(
    pattern.source,
    pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`,
  );
  return (request) => {
    const found = [...new Set(textToSummarize(request).match(global) ?? [])];
    return { content: `${prefix}${found.join(", ")}` };
  };
}

/** A reply that keeps the model "thinking" until released: for a turn a test stops mid-way. */
export interface HeldReply {
  /** Answers `then` once released; until then each call waits. */
  reply: Script;
  /** How many calls have come in. */
  readonly calls: number;
  /** Holds the calls that come in from now on, until `release()`. */
  hold(): void;
  /** Lets every held call answer. */
  release(): void;
}

export function heldReply(then: ScriptReply): HeldReply {
  let calls = 0;
  let gate = Promise.resolve();
  let open: (() => void) | undefined;
  return {
    reply: async () => {
      calls += 1;
      await gate;
      return then;
    },
    get calls() {
      return calls;
    },
    hold() {
      if (open) return; // already held: the calls waiting keep waiting for the same release
      gate = new Promise<void>((resolve) => {
        open = resolve;
      });
    },
    release() {
      open?.();
      open = undefined;
    },
  };
}
