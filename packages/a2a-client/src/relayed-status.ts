/**
 * A subagent's status update as the agent that asked it passes it on. The top level is the relaying
 * agent's own word: `kind: "agent-status"` and `agent`, the agent it asked (and `tool`, for clients
 * that show it). The subagent's metadata goes under `relayed` whole, never spread over the top
 * level, so nothing of it is overwritten (its `kind` still tells a tool call from a result) and
 * nothing a subagent writes passes for the relaying agent's own (an `agent-call` it invents stays
 * inside, where it cannot look like the supervisor's routing).
 */
export const RELAYED_KEY = "relayed";

export function relayedMetadata(
  agent: string,
  metadata: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const tool = metadata?.tool;
  return {
    kind: "agent-status",
    agent,
    ...(typeof tool === "string" ? { tool } : {}),
    ...(metadata ? { [RELAYED_KEY]: metadata } : {}),
  };
}

/** What a status update reports, from the agent that did it (`via`: the agents it was relayed through, outermost first). */
export interface StatusOrigin {
  kind?: string;
  /** The agent it names: for a relayed update, the agent the innermost relay asked. */
  agent?: string;
  tool?: string;
  via: string[];
}

/**
 * Follows relays down to the update the working agent sent. Who did it is what each relaying agent
 * says (the agent it asked), not what the update says of itself: an agent asked is trusted to name
 * its own subagents, never to name the agent that asked it.
 */
export function statusOrigin(metadata: Record<string, unknown> | undefined): StatusOrigin {
  const via: string[] = [];
  let current = metadata;
  let named: string | undefined;
  // Each relay wraps once: the depth is the hops' depth, bounded by the update's own size.
  while (
    current?.kind === "agent-status" &&
    typeof current.agent === "string" &&
    isRecord(current[RELAYED_KEY])
  ) {
    via.push(current.agent);
    named = current.agent;
    current = current[RELAYED_KEY];
  }
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const kind = text(current?.kind);
  const agent = named ?? text(current?.agent);
  const tool = text(current?.tool);
  return { ...(kind ? { kind } : {}), ...(agent ? { agent } : {}), ...(tool ? { tool } : {}), via };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
