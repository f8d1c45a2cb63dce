import { type AgentHost, callerOf } from "@switchboard/agent-runtime";
import type { Roster, SubagentReport } from "./roster.js";

/** What a caller is told of one subagent: never where it runs, nor a connection error naming a host. */
export type ListedSubagent = Pick<SubagentReport, "name" | "status" | "description" | "skills">;

/**
 * GET /subagents: the subagents the caller may reach and their state (the web chat's list of
 * agents), by the same `reach` decision as routing (Hops.mayReach), so an agent the policy keeps
 * from a user is neither listed nor routed to. Name, status, description and skills only: an
 * unreachable agent's reason names its host and stays in the supervisor's log.
 */
export function serveSubagents(host: Pick<AgentHost, "agent" | "routes" | "mayReach">, roster: Roster): void {
  const { agent, mayReach } = host;
  host.routes.get("/subagents", async (req, res) => {
    const caller = await callerOf(req);
    const subagents: ListedSubagent[] = roster
      .report()
      .filter((entry) => mayReach(entry.name, caller))
      .map(({ name, status, description, skills }) => ({
        name,
        status,
        ...(description !== undefined ? { description } : {}),
        skills,
      }));
    res.json({ agent, subagents });
  });
}
