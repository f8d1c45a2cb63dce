import { isSwitchboardError, redactSecrets, type SwitchboardError } from "@switchboard/common";

/**
 * The SwitchboardError an error is or was caused by: LangChain's agent wraps what a model call or a
 * middleware threw in a MiddlewareError, the original as its cause.
 */
export function switchboardErrorIn(error: unknown): SwitchboardError | undefined {
  for (let at = error, depth = 0; at && depth < 6; depth += 1) {
    if (isSwitchboardError(at)) return at;
    at = (at as { cause?: unknown }).cause;
  }
  return undefined;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown; statusCode?: unknown } | undefined)?.status;
  return typeof status === "number" ? status : undefined;
}

function isMongoFailure(error: unknown): boolean {
  const name = (error as { name?: unknown } | undefined)?.name;
  return typeof name === "string" && /^Mongo(ServerSelection|Network|Topology|NotConnected)/.test(name);
}

/**
 * What a person reads when a turn fails: the problem and what to do, never a stack trace or a secret.
 */
export function describeFailure(error: unknown, agent: string): string {
  const known = switchboardErrorIn(error);
  if (known) return redactSecrets(known.message);
  const message = redactSecrets(error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
  if (isMongoFailure(error)) {
    return `The ${agent} agent cannot reach MongoDB to load or save this conversation (${message}). Nothing was lost; try again once MongoDB is back.`;
  }
  const status = statusOf(error);
  if (status === 401 || status === 403) {
    return `The LLM provider refused the ${agent} agent's credentials (HTTP ${status}): check the API key for LLM_PROVIDER.`;
  }
  if (status === 429)
    return `The LLM provider is rate-limiting the ${agent} agent (HTTP 429). Try again shortly.`;
  if (status !== undefined && status >= 500) {
    return `The LLM provider failed (HTTP ${status}) while the ${agent} agent was working. Try again shortly.`;
  }
  return `The ${agent} agent failed: ${message}`;
}
