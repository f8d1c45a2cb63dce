import type { AgentRoutes } from "@switchboard/agent-runtime";
import type { Roster } from "./roster.js";

/** GET /subagents: the roster's subagents and their state (the web chat's list of agents). */
export function serveSubagents(routes: AgentRoutes, agent: string, roster: Roster): void {
  routes.get("/subagents", (_req, res) => {
    res.json({ agent, subagents: roster.report() });
  });
}
