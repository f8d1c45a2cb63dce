import type { ArgMatcher, EvalCase } from "@switchboard/eval";
import {
  type ChatCompletionRequest,
  callTool,
  messageText,
  offeredToolNames,
  type Script,
  say,
} from "@switchboard-testing/test-llm";

/** Tool results since the last user message: how far into its plan the model is. */
function stepsDone(request: ChatCompletionRequest): number {
  const last = request.messages.findLastIndex((message) => message.role === "user");
  return request.messages.slice(last + 1).filter((message) => message.role === "tool").length;
}

/** An argument that satisfies the matcher (a regex cannot be inverted: left out). */
function argFor(matcher: ArgMatcher): unknown {
  if ("equals" in matcher) return matcher.equals;
  if ("contains" in matcher) return matcher.contains;
  if ("any" in matcher) return "x";
  return undefined;
}

/**
 * A model that does what each case expects, as a well-behaved real model would: the supervisor asks
 * the case's agents in order with the user's words, each agent calls the case's tools it offers in
 * order with arguments meeting the matchers, and the answers carry what the case checks for. The
 * bench measures the evaluation and the fleet around it, not a model's judgement.
 */
export function playCases(cases: readonly EvalCase[]): Script {
  const byInput = [...cases].sort((a, b) => (b.messages[0]?.length ?? 0) - (a.messages[0]?.length ?? 0));
  // The case is the one whose request is among the user's messages (after a confirmation's "yes" too).
  const find = (request: ChatCompletionRequest) => {
    const texts = request.messages
      .filter((message) => message.role === "user")
      .map((message) => messageText(message.content))
      .reverse();
    for (const text of texts) {
      const found = byInput.find((c) => c.messages[0] && text.includes(c.messages[0]));
      if (found) return found;
    }
    return undefined;
  };
  return (request) => {
    const c = find(request);
    const done = stepsDone(request);
    const answer = `Done. ${[...(c?.expect.answer?.contains ?? [])].join(", ")}`.trim();
    if (!c) return say("I can help with your platform's tools.");
    const offered = offeredToolNames(request);
    if (offered.includes("call_agent")) {
      const agents = c.expect.agents?.alternatives[0] ?? [];
      const next = agents[done];
      return next ? callTool("call_agent", { agent: next, message: c.messages[0] }) : say(answer);
    }
    const calls = (c.expect.tools?.calls ?? []).filter((call) => offered.includes(call.name));
    const next = calls[done];
    if (!next) return say(answer);
    const args = Object.fromEntries(
      Object.entries(next.args ?? {})
        .map(([name, matcher]) => [name, argFor(matcher)] as const)
        .filter(([, value]) => value !== undefined),
    );
    return callTool(next.name, args);
  };
}
