import { createHash } from "node:crypto";
import type { User } from "@a2a-js/sdk/server";
import { type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AuthenticatedCaller } from "../auth/caller.js";

/**
 * Asked for at each span, never kept from module load: this module (ESM) and the SDK (CommonJS) hold
 * separate copies of the API, and a tracer taken before the SDK registered would stay a no-op.
 */
function tracer() {
  return trace.getTracer("@switchboard/agent-runtime");
}

/**
 * The span of one agent turn (GenAI `invoke_agent`): the parent of its model, tool, checkpoint and
 * subagent spans. It names the agent, conversation and task, never the caller or what was said.
 */
export function startTurnSpan(agent: string, ids: { contextId: string; taskId: string }, user?: User): Span {
  return tracer().startSpan(`invoke_agent ${agent}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": agent,
      "gen_ai.conversation.id": conversationAttribute(ids.contextId, user),
      "switchboard.agent": agent,
      "switchboard.task.id": ids.taskId,
    },
  });
}

export function endTurnSpan(span: Span, outcome: string): void {
  span.setAttribute("switchboard.turn.outcome", outcome);
  if (outcome === "failed") span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * The conversation id as traces show it: verbatim for anonymous callers; for an authenticated one
 * the first 16 hex of its sha256, so a trace backend's readers cannot address a user's conversation.
 */
export function conversationAttribute(contextId: string, user: User | undefined): string {
  if (!(user instanceof AuthenticatedCaller)) return contextId;
  return createHash("sha256").update(contextId).digest("hex").slice(0, 16);
}
