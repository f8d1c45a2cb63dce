import type { SendMessageRequest } from "@a2a-js/sdk";

/**
 * CAIPE's supervisor never sets `message.contextId`: it sends its conversation id as
 * `message.metadata.context_id`, and CAIPE's own agents take that as their conversation. So a
 * message that names no context and no task takes `metadata.context_id` as its contextId; an
 * explicit contextId always wins, and a message on a task keeps the task's context. The thread is
 * still derived from the contextId and the verified caller, so the isolation rules are unchanged.
 */
export function withCaipeContextId(params: SendMessageRequest): SendMessageRequest {
  const message = params.message;
  if (!message || message.contextId || message.taskId) return params;
  const contextId: unknown = message.metadata?.context_id;
  if (typeof contextId !== "string" || contextId.trim() === "") return params;
  return { ...params, message: { ...message, contextId } };
}
