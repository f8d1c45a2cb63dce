import type { Principal } from "@switchboard/agent-runtime";
import type { AgentSpec } from "../definitions/spec.js";

/**
 * Who may reach a configured agent by CAIPE's `visibility`, beside the policies: `global`, everyone
 * the policies let in; `team`, members of the owner team's group or of a team it is shared with
 * (a team's id is the group name its members carry in their tokens). Without sign-in
 * (AUTH_MODE=none) there are no groups to read: as CAIPE with SSO off, the local user sees all.
 */
export function visibleTo(spec: AgentSpec, authMode: "none" | "jwt"): (principal: Principal) => boolean {
  const { teams } = readersOf(spec);
  if (!teams || authMode === "none") return () => true;
  return (principal) => principal.authenticated && principal.groups.some((group) => teams.includes(group));
}

/**
 * Who a configured agent is for, as the host's directory tells the supervisor: `teams` (the group
 * names whose members may reach it) for a team's agent, nothing for a global one.
 */
export function readersOf(spec: AgentSpec): { teams?: string[] } {
  if (spec.visibility === "global") return {};
  return { teams: [...new Set([...(spec.ownerTeam ? [spec.ownerTeam] : []), ...spec.sharedWithTeams])] };
}
