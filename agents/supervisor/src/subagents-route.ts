import { type AgentHost, callerOf } from "@switchboard/agent-runtime";
import type { Roster, SubagentReport } from "@switchboard/delegation";

/** What a caller is told of one subagent: never where it runs, nor a connection error naming a host. */
export type ListedSubagent = Pick<SubagentReport, "name" | "status" | "description" | "skills" | "reason">;

/** Why an agent is not available, as a caller reads it: the error itself (naming its host) is logged. */
const WHY: Record<Exclude<SubagentReport["status"], "available">, string> = {
  connecting: "The supervisor is still connecting to it.",
  unreachable: "The supervisor cannot reach it now; the supervisor's log says why.",
  refused: "Its card does not match the agent configured; the supervisor's log says why.",
};

/**
 * GET /subagents: the subagents the caller may reach and their state (the web chat's list of
 * agents), by the same `reach` decision as routing (Hops.mayReach), so an agent the policy keeps
 * from a user is neither listed nor routed to. Name, status, description and skills, and for one
 * not available a fixed sentence: the connection error names its host and stays in the log.
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
        ...(status !== "available" ? { reason: WHY[status] } : {}),
      }));
    res.json({ agent, subagents });
  });
}
