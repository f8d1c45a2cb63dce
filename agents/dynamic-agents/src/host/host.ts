import { createServer } from "node:http";
import {
  loadPolicies,
  principalOf,
  readAuthzSettings,
  readRuntimeSettings,
} from "@switchboard/agent-runtime";
import { authForAgent, readAuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import {
  addTenantA2AService,
  type GrpcListener,
  grpcAddress,
  listenGrpc,
} from "@switchboard/agent-runtime/grpc";
import { createLogger, type Logger, listenHttp } from "@switchboard/common";
import { collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { type DefinitionProblem, definitionsApi, openDefinitions } from "../definitions/index.js";
import { HOST_NAME } from "../definitions/rules.js";
import { readHostSettings } from "../env.js";
import { HostAccess } from "./access.js";
import { AgentSet } from "./agent-set.js";
import { grpcRoute } from "./grpc.js";
import { openSharedMongo } from "./mongo.js";
import { callerPrincipal, hostApp } from "./routes.js";
import { ToolSources } from "./tool-sources.js";

export interface RunningHost {
  /** Loopback URL of the port it bound. */
  url: string;
  port: number;
  /** Where it answers A2A over gRPC for every agent (host:port, loopback form), unless A2A_GRPC_PORT=off. */
  grpcUrl?: string;
  publicUrl: string;
  agents: AgentSet;
  /** Stops taking requests, lets every agent finish its turns (the grace period), closes everything. */
  drain(graceMs?: number): Promise<void>;
}

/**
 * Starts the host: one MongoDB client for every agent and the definitions, the definitions (file and
 * store), the agents they define (a failing one is logged and skipped, never fatal to the others),
 * one HTTP server for all, and from then on every change to the definitions applied as it comes.
 */
export async function startHost(
  options: { env?: NodeJS.ProcessEnv; logger?: Logger } = {},
): Promise<RunningHost> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger({ base: { agent: HOST_NAME } });
  const settings = readHostSettings(env);
  // A2A_GRPC_PORT and MAX_REQUEST_BYTES, read as every agent reads them (default PORT + 1000).
  const runtime = readRuntimeSettings(env, { name: HOST_NAME, port: settings.port });
  const auth = readAuthSettings(env, HOST_NAME);
  const authz = readAuthzSettings(env);
  const policies = loadPolicies(authz, logger);
  if (auth.mode === "jwt" && !policies) {
    logger.warn(
      'AUTH_MODE=jwt with no policy: nobody may create, change or delete configured agents through /api/v1/agents. Set RBAC_ADMIN_GROUPS (CAIPE\'s admins) or AUTHZ_POLICY_FILE with a policy permitting Switchboard::Action::"configure".',
    );
  }
  const mongo = await openSharedMongo(env, HOST_NAME, logger);
  const cleanups: Array<() => Promise<void> | void> = [() => policies?.close(), () => mongo?.close()];
  try {
    const source = await openDefinitions({ env, logger, ...(mongo ? { db: mongo.db } : {}) });
    cleanups.unshift(() => source.close());
    // What Switchboard does not take from the file is named once, as for the .env.
    for (const line of source.current().unused) logger.warn(line);
    const problems = new ProblemLog(logger);

    const server = createServer();
    const port = await listenHttp(server, settings.port, settings.host);
    const url = `http://127.0.0.1:${port}`;
    const publicUrl = settings.publicUrl ?? `http://localhost:${port}`;
    // One gRPC port for every agent, each call routed by its tenant (the agent's id).
    let grpc: GrpcListener | undefined;
    if (runtime.grpc) {
      grpc = await listenGrpc(settings.host, runtime.grpc.port, runtime.maxBodyBytes, logger);
      const listener = grpc;
      cleanups.unshift(() => listener.close());
    }
    const grpcPublic = grpc && (runtime.grpc?.publicAddress ?? grpcAddress(publicUrl, grpc.port));
    // Each agent's bearer check: the host's keys, a hop token meant for that agent.
    const authFor = (id: string) => authForAgent(auth, id);
    const agents = new AgentSet({
      env,
      logger,
      authMode: auth.mode,
      ...(mongo ? { mongo: mongo.client } : {}),
      sources: new ToolSources({ env, logger, timeoutMs: settings.mcpStartupTimeoutMs }),
      publicUrl: (id) => `${publicUrl}/agents/${id}`,
      localUrl: (id) => `${url}/agents/${id}`,
      ...(grpcPublic ? { grpcAddress: grpcPublic } : {}),
      shutdownGraceMs: settings.shutdownGraceMs,
      serviceName: `switchboard-${HOST_NAME}`,
    });
    const access = new HostAccess(
      policies?.engine,
      (id) => source.current().agents.find((spec) => spec.id === id),
      auth.mode,
    );
    const registry = hostMetrics(agents);
    let draining = false;
    const principal = callerPrincipal((user) => principalOf(user, authz.groupClaims));
    server.on(
      "request",
      hostApp({
        agents,
        access,
        auth,
        authFor,
        principalOf: principal,
        api: definitionsApi({
          // A change made through the API is answered once the host serves it: the agent answers at once.
          source: {
            current: () => source.current(),
            onChange: (listener) => source.onChange(listener),
            store: source.store,
            refresh: async () => {
              await source.refresh();
              await agents.settled();
            },
            close: () => source.close(),
          },
          store: source.store,
          caller: principal,
          decide: (caller, action, agentId) =>
            access.decide(caller ?? principalOf(undefined, authz.groupClaims), action, agentId),
          logger,
        }),
        registry,
        logger,
        publicUrl: () => publicUrl,
        draining: () => draining,
      }),
    );
    if (grpc) {
      addTenantA2AService(
        grpc.server,
        grpcRoute({
          agents,
          auth,
          authFor,
          principalOf: (caller) => principalOf(caller, authz.groupClaims),
          draining: () => draining,
        }),
        logger,
      );
    }
    problems.said(source.current().problems);
    await agents.reconcile(source.current());
    const unsubscribe = source.onChange((next) => {
      problems.said(next.problems);
      void agents.reconcile(next);
    });
    cleanups.unshift(unsubscribe);
    logger.info(
      {
        url: publicUrl,
        port,
        ...(grpc ? { grpcPort: grpc.port } : {}),
        agents: agents.list().map((agent) => agent.spec.id),
      },
      "dynamic agents host ready",
    );
    return {
      url,
      port,
      ...(grpc ? { grpcUrl: `127.0.0.1:${grpc.port}` } : {}),
      publicUrl,
      agents,
      drain: async (graceMs = settings.shutdownGraceMs) => {
        draining = true;
        unsubscribe();
        await agents.close(graceMs);
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        for (const cleanup of cleanups) await cleanup();
      },
    };
  } catch (error) {
    for (const cleanup of cleanups) await cleanup();
    throw error;
  }
}

/** Logs each problem in the definitions once, when it appears (the agent and field named). */
class ProblemLog {
  private seen = new Set<string>();

  constructor(private readonly logger: Logger) {}

  said(problems: DefinitionProblem[]): void {
    const now = new Set<string>();
    for (const problem of problems) {
      const key = JSON.stringify(problem);
      now.add(key);
      if (this.seen.has(key)) continue;
      const who = problem.agent ? `agent "${problem.agent}"` : "the definitions";
      this.logger.error(
        { agentId: problem.agent, field: problem.field },
        `${who}: ${problem.field}: ${problem.message}`,
      );
    }
    this.seen = now;
  }
}

/** The host's own metrics: the process's, how many agents it serves and how many it refused (per-agent ones are each agent's). */
function hostMetrics(agents: AgentSet): Registry {
  const registry = new Registry();
  // The process's metrics, once for every agent it serves (a mounted agent's /metrics has only its own).
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "dynamic_agents_served",
    help: "Configured agents this host serves",
    registers: [registry],
    collect() {
      this.set(agents.list().length);
    },
  });
  new Gauge({
    name: "dynamic_agents_refused",
    help: "Configured agents whose latest definition could not be built (their last good one, if any, still serves)",
    registers: [registry],
    collect() {
      this.set(agents.problems().size);
    },
  });
  return registry;
}
