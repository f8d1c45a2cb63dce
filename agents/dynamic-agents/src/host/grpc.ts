import type { AuthenticatedCaller, Principal } from "@switchboard/agent-runtime";
import { type AuthSettings, callerFromHeaderReader } from "@switchboard/agent-runtime/auth/bearer";
import type { TenantRefusal, TenantRoute } from "@switchboard/agent-runtime/grpc";
import type { AgentSet } from "./agent-set.js";

export interface GrpcRouteOptions {
  agents: AgentSet;
  /** The host's own bearer check: a tenant that names no agent is checked with it. */
  auth: AuthSettings;
  /** The bearer check as agent `id` runs it (a supervisor's hop token is meant for that agent alone). */
  authFor: (id: string) => AuthSettings;
  /** A verified caller as a principal (its groups from the configured claims). */
  principalOf: (caller: AuthenticatedCaller) => Principal;
  /** True once draining: new calls are turned away, to be sent to another replica. */
  draining: () => boolean;
}

/**
 * Where a gRPC call goes on the host's one gRPC port: to the agent its A2A 1.0 `tenant` names (its
 * id, as its card says), by the HTTP side's reach rule (routes.ts): a global agent decides every call
 * itself; a team's agent is reached only with a token it verifies, by a member of its teams, and is
 * answered NOT_FOUND to anyone else, as an unknown tenant is. A token is checked before a tenant
 * that names no agent is said to be unknown, so a missing or forged token is refused alike whether
 * or not the agent exists: nothing about the host's agents is told before a caller is known.
 * Policies (`reach`, tools) are each agent's own, decided where the call runs.
 */
export function grpcRoute(options: GrpcRouteOptions): TenantRoute {
  const { agents, auth } = options;
  return async (tenant, header) => {
    if (options.draining()) {
      return {
        refused: "unavailable",
        details:
          "This dynamic agents host is shutting down; send the request again (another replica takes it).",
      };
    }
    const running = agents.get(tenant);
    if (running && (running.spec.visibility === "global" || auth.mode === "none")) {
      return running.agent.grpcHandlers();
    }
    if (auth.mode === "jwt") {
      const settings = running ? options.authFor(running.spec.id) : auth;
      if (settings.mode === "jwt") {
        const caller = await callerFromHeaderReader(settings, header);
        if (typeof caller === "string")
          return { refused: "unauthenticated", details: `Unauthorized: ${caller}.` };
        if (running?.visibleTo(options.principalOf(caller))) return running.agent.grpcHandlers();
      }
    }
    return missing(tenant);
  };
}

/** One answer for an agent that does not exist and one the caller may not see: nothing is told. */
function missing(tenant: string): TenantRefusal {
  if (!tenant) {
    return {
      refused: "not-found",
      details:
        "This host serves many agents on one gRPC port: name one in the request's tenant, as its card's gRPC interface does (GET /agents lists yours).",
    };
  }
  // Cut as agentIdProblem cuts an id (no agent's is longer): a tenant is the caller's words, unbounded.
  return {
    refused: "not-found",
    details: `No agent ${JSON.stringify(tenant.slice(0, 80))} here: GET /agents lists yours.`,
  };
}
