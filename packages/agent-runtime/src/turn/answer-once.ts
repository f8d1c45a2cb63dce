import type { RequestContext } from "@a2a-js/sdk/server";

/**
 * Whether the turn's caller speaks A2A 0.3 (no `A2A-Version` header): CAIPE's Python supervisor and
 * agents, and other a2a-sdk 0.3 clients. Such clients read the answer by concatenating the text of
 * every artifact update (ignoring `append`) and of the completed status message, so they get the
 * answer exactly once: no token chunks (none was asked for: 0.3 has no way to ask), one complete
 * answer artifact, and a completed status that does not repeat it. Callers of 1.0 keep the token
 * stream and the answer in the completed status.
 */
export function readsAnswerOnce(request: RequestContext): boolean {
  return request.context?.requestedVersion === "0.3";
}
