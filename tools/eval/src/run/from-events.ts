import type { TurnEvent } from "@switchboard/a2a-client";
import type { Observation } from "../case.js";
import { ROUTING_TOOL } from "./from-traces.js";

/**
 * Routing and tool names as the turn's own A2A status updates tell them (no traces needed): the
 * supervisor's `agent-call` ("Asking the jira agent"), an agent's `tool-call` ("Calling
 * search_issues") and a subagent's progress the supervisor relays (`agent-status`, "jira: Calling
 * search_issues"). Arguments are not in them: they come from traces.
 */
export function observeEvent(
  event: TurnEvent,
  target: string,
  seen: Pick<Observation, "agents" | "tools">,
): void {
  if (event.kind !== "status" || !event.metadata) return;
  const { kind, agent, tool } = event.metadata as { kind?: unknown; agent?: unknown; tool?: unknown };
  if (kind === "agent-call" && typeof agent === "string") seen.agents.push(agent);
  else if (kind === "tool-call" && typeof tool === "string" && tool !== ROUTING_TOOL)
    seen.tools.push({ agent: typeof agent === "string" ? agent : target, name: tool });
  else if (
    kind === "agent-status" &&
    typeof agent === "string" &&
    typeof tool === "string" &&
    tool !== ROUTING_TOOL &&
    // The relayed text is the subagent's own ("Calling <tool>" when it asks, "<tool> done" after).
    event.text?.endsWith(`Calling ${tool}`)
  )
    seen.tools.push({ agent, name: tool });
}
