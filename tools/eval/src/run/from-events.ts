import { statusOrigin, type TurnEvent } from "@switchboard/a2a-client";
import type { Observation } from "../case.js";
import { ROUTING_TOOL } from "./from-traces.js";

/**
 * Routing and tool names as the turn's own A2A status updates tell them (no traces needed): the
 * target's `agent-call` ("Asking the jira agent"), a `tool-call` ("Calling search_issues"), the
 * target's own or one a subagent sent, which the agents that asked it relay with its metadata
 * whole (`statusOrigin`: whose it is is what each relaying agent says). Only the target's own
 * `agent-call` is routing: one inside a relay is a subagent's, or a subagent's invention.
 * Arguments are not in them: they come from traces.
 */
export function observeEvent(
  event: TurnEvent,
  target: string,
  seen: Pick<Observation, "agents" | "tools">,
): void {
  if (event.kind !== "status" || !event.metadata) return;
  const { kind, agent, tool, via } = statusOrigin(event.metadata);
  if (kind === "agent-call" && via.length === 0 && agent) seen.agents.push(agent);
  else if (kind === "tool-call" && tool && tool !== ROUTING_TOOL)
    seen.tools.push({ agent: agent ?? target, name: tool });
}
