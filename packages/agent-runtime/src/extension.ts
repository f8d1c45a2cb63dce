import type { User } from "@a2a-js/sdk/server";
import type { Logger } from "@switchboard/common";
import type { Request, Response } from "express";
import type { AuditTrail } from "./audit/audit-trail.js";
import type { Principal } from "./authz/principal.js";
import type { DeletionHook } from "./conversations/deletion.js";
import type { UserData } from "./memory/user-data.js";
import type { AgentMetrics } from "./telemetry/metrics.js";

// What an agent may add to the runtime beyond its tools and graph: HTTP routes, metrics, a step in
// deleting a conversation, cleanup on close. The supervisor serves its roster and passes deletions
// on to its subagents this way; the runtime itself knows nothing of either.

/** Answers one request to a route of the agent's own (express 5: a rejected promise is a 500). */
export type RouteHandler = (req: Request, res: Response) => unknown;

/**
 * Routes of the agent's own, served beside the runtime's (which win on the same path, except
 * GET /audit and GET /linked-tokens: an agent may serve its own, as the supervisor gathers the
 * fleet's) behind the same bearer-token check: with AUTH_MODE=jwt a request without a valid token
 * is answered 401 before the handler runs, and `callerOf(req)` is the verified caller. POST and PUT bodies are parsed as
 * JSON with the runtime's size limit.
 */
export interface AgentRoutes {
  get(path: string, handler: RouteHandler): void;
  post(path: string, handler: RouteHandler): void;
  put(path: string, handler: RouteHandler): void;
  delete(path: string, handler: RouteHandler): void;
}

/** What an agent is given to add to the runtime, in `extend` (any agent) or in its own `graph`. */
export interface AgentHost {
  /** The agent's name (`jira`, `supervisor`, …). */
  agent: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  routes: AgentRoutes;
  metrics: AgentMetrics;
  onDeleteConversation(hook: DeletionHook): void;
  /** The agent's own audit trail, read as GET /audit reads it (policy decided, caller scoped). */
  audit: AuditTrail;
  /**
   * Whether `caller` may reach another agent, by this agent's policies (true with none): a route's
   * (`await callerOf(req)`) or a turn's (`turn.caller`); undefined is an anonymous caller. The
   * supervisor routes, and lists in GET /subagents, only where the user may go.
   */
  mayReach(agent: string, caller: User | undefined): boolean;
  /** `caller` as the policies see it: its verified subject and its groups (from the configured claims). */
  principalOf(caller: User | undefined): Principal;
  /**
   * The calling user's data on this agent: memories (list, erase) and "forget me". The runtime
   * serves them at /memories and /me unless the agent serves those paths itself (the supervisor
   * gathers the fleet's).
   */
  userData: UserData;
  /** Registers cleanup to run when the agent stops (timers, connections). */
  onClose(cleanup: () => Promise<void> | void): void;
}

export interface AgentRoute {
  method: "get" | "post" | "put" | "delete";
  path: string;
  handler: RouteHandler;
}

/** What the agent added through its host, for the runtime to serve and run. */
export interface AgentAdditions {
  routes: AgentRoute[];
  deletionHooks: DeletionHook[];
  cleanups: Array<() => Promise<void> | void>;
}

/** A host for one served agent, and what the agent adds through it. */
export function createHost(
  base: Pick<
    AgentHost,
    "agent" | "env" | "logger" | "metrics" | "audit" | "mayReach" | "principalOf" | "userData"
  >,
): {
  host: AgentHost;
  additions: AgentAdditions;
} {
  const additions: AgentAdditions = { routes: [], deletionHooks: [], cleanups: [] };
  const route =
    (method: AgentRoute["method"]) =>
    (path: string, handler: RouteHandler): void => {
      additions.routes.push({ method, path, handler });
    };
  const host: AgentHost = {
    ...base,
    routes: { get: route("get"), post: route("post"), put: route("put"), delete: route("delete") },
    onDeleteConversation: (hook) => additions.deletionHooks.push(hook),
    onClose: (cleanup) => additions.cleanups.push(cleanup),
  };
  return { host, additions };
}
