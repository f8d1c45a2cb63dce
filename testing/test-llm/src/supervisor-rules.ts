import { callTool, replyFromToolResult } from "./replies.js";
import type { Rule } from "./rules.js";

/**
 * The supervisor's model, scripted: a user message `<agent>: <request>` becomes a `call_agent` call
 * to that agent, and the agent's answer comes back as the reply; `forward to <agent>: <request>`
 * marks the call `final`, so the agent's answer is the supervisor's with no second model call.
 * Only where `call_agent` is offered, so subagents sharing the server follow their own rules.
 */
export function routeByAgentPrefix(): Rule[] {
  return [
    {
      toolOffered: "call_agent",
      lastUser: /^forward to ([\w-]+): (.+)$/s,
      reply: (_request, { match }) =>
        callTool("call_agent", { agent: match?.[1], message: match?.[2], final: true }),
    },
    {
      toolOffered: "call_agent",
      lastUser: /^([\w-]+): (.+)$/s,
      reply: (_request, { match }) => callTool("call_agent", { agent: match?.[1], message: match?.[2] }),
    },
    {
      toolOffered: "call_agent",
      afterTool: "call_agent",
      reply: replyFromToolResult((results) => results.map((result) => result.content).join("\n")),
    },
  ];
}
