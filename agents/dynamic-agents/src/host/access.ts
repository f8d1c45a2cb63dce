import type { PolicyEngine, Principal } from "@switchboard/agent-runtime";
import { visibleTo } from "../build/visibility.js";
import type { AgentSpec } from "../definitions/spec.js";

/**
 * The host's decisions on its agents, by the same policies every agent runs (AUTHZ_POLICY_FILE, the
 * RBAC_* groups): `configure` (create, change or delete a configured agent) and `reach` (use one,
 * see it in GET /agents), the latter also by the agent's CAIPE visibility. With no policy, as for any
 * agent, reaching is allowed as far as the visibility allows; configuring only without sign-in.
 */
export class HostAccess {
  constructor(
    private readonly policies: PolicyEngine | undefined,
    /** The agent's current definition, if any. */
    private readonly specOf: (id: string) => AgentSpec | undefined,
    private readonly authMode: "none" | "jwt",
  ) {}

  async decide(principal: Principal, action: "configure" | "reach", agentId: string): Promise<boolean> {
    if (action === "reach") return this.mayReach(principal, agentId);
    // Making agents is an administrator's (as in CAIPE): with sign-in on and no policy naming who
    // may, nobody may (host.ts says so at start-up); without sign-in the one local user may.
    if (!this.policies) return this.authMode === "none";
    return this.policies.decide({ principal, action: "configure", agent: agentId }).allowed;
  }

  /** By its visibility and by the policies' `reach`; an agent with no definition is reachable by no one. */
  mayReach(principal: Principal, agentId: string): boolean {
    const spec = this.specOf(agentId);
    if (!spec || !visibleTo(spec, this.authMode)(principal)) return false;
    if (!this.policies) return true;
    return this.policies.decide({ principal, action: "reach", agent: agentId }).allowed;
  }
}
