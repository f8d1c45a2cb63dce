import type { User } from "@a2a-js/sdk/server";
import { SwitchboardError } from "@switchboard/common";
import type { AuditRecorder } from "../audit/recorder.js";
import type { CallCredential } from "../context/tool-call-context.js";
import type { LinkedTokens } from "../credentials/linked-tokens.js";
import type { PolicyEngine } from "./engine.js";
import { type Principal, principalOf } from "./principal.js";
import type { ToolResource } from "./request.js";

/**
 * Who may do what on this agent, decided where it runs: its policies (none: everything allowed),
 * where its decisions are recorded, and how a caller's token becomes a principal.
 */
export class Access {
  constructor(
    readonly agent: string,
    readonly policies: PolicyEngine | undefined,
    readonly audit: AuditRecorder | undefined,
    private readonly groupClaims: string[],
    /** Users' own tokens for the agent's vendor, when linking is on (see credentials/). */
    readonly linked?: LinkedTokens,
  ) {}

  /** The caller's linked token for this agent's vendor, opened for their call; none when anonymous. */
  async linkedCredential(principal: Principal): Promise<CallCredential | undefined> {
    if (!this.linked || !principal.authenticated) return undefined;
    const token = await this.linked.tokenFor(principal.subject);
    if (token === undefined) return undefined;
    return {
      vendor: this.linked.vendor.vendor,
      token,
      ...(principal.email ? { email: principal.email } : {}),
    };
  }

  principal(user: User | undefined): Principal {
    return principalOf(user, this.groupClaims);
  }

  /**
   * Whether `principal` may reach `agent` by these policies (true with none): the supervisor routes,
   * and lists in GET /subagents, only those. The agent itself decides again.
   */
  callerMayReach(principal: Principal, agent: string): boolean {
    if (!this.policies) return true;
    return this.policies.decide({ principal, action: "reach", agent }).allowed;
  }

  /**
   * Whether `approver` may answer `requester`'s change: the `approve` action on the change's call,
   * with `resource.requester` the user whose change it is. With no policies nobody may answer
   * another user's change (only its requester). Undefined when allowed; otherwise one line saying
   * who was refused and why (a2a-client's readQuestion knows its shape), and an audit line.
   */
  async checkApproval(
    approver: Principal,
    requester: Principal,
    change: { tool?: string; resource?: ToolResource },
    contextId: string,
  ): Promise<string | undefined> {
    const question = {
      principal: approver,
      action: "approve",
      agent: this.agent,
      ...(change.tool ? { tool: change.tool } : {}),
      ...(change.resource ? { resource: change.resource } : {}),
      requester,
    } as const;
    const decision = this.policies?.decide(question);
    if (decision?.allowed) return undefined;
    const policies = decision?.policies ?? [];
    await this.audit?.denial({
      principal: approver,
      tool: change.tool ?? "*",
      args: {},
      ...(change.resource ? { resource: change.resource } : {}),
      policy: policies,
      contextId,
      requester,
    });
    const why = !this.policies
      ? "no policy is set, so only the user who asked may decide"
      : policies.length
        ? `forbidden by policy ${policies.join(", ")}`
        : "no policy permits it";
    return `Not allowed: ${nameOf(approver)} may not approve or decline ${nameOf(requester)}'s change (${why}). Nothing was done; ${nameOf(requester)} can still answer.`;
  }

  /**
   * Refuses a caller who may not use this agent at all, before anything runs: a `user` error that
   * fails the task with what was refused, recorded in the audit trail.
   */
  async checkReach(principal: Principal, contextId: string): Promise<void> {
    const refused = await this.reachRefusal(principal, { contextId });
    if (refused) throw new SwitchboardError("authz.denied", "user", refused);
  }

  /**
   * The one reach decision, for a turn (checkReach) and for every HTTP route a caller uses
   * (http/reach-guard.ts): undefined when allowed; otherwise the refusal's sentence, with a denial
   * line in the audit trail (`args.route` names the route refused, for an HTTP request).
   */
  async reachRefusal(
    principal: Principal,
    where: { contextId?: string; route?: string },
  ): Promise<string | undefined> {
    if (!this.policies) return undefined;
    const decision = this.policies.decide({ principal, action: "reach", agent: this.agent });
    if (decision.allowed) return undefined;
    await this.audit?.denial({
      principal,
      tool: "*",
      args: where.route ? { route: where.route } : {},
      policy: decision.policies,
      ...(where.contextId ? { contextId: where.contextId } : {}),
    });
    const who = principal.authenticated ? nameOf(principal) : "An anonymous caller";
    return `Not allowed: ${who} may not use the ${this.agent} agent${decision.policies.length ? ` (forbidden by policy ${decision.policies.join(", ")})` : " (no policy permits it)"}. Ask an administrator for access.`;
  }
}

/** How a person is named in a refusal: the token's email, else its name, else its subject. */
function nameOf(principal: Principal): string {
  return principal.email ?? principal.name ?? principal.subject;
}
