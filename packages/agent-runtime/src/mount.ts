import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Server as GrpcServer } from "@grpc/grpc-js";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createLogger, type Logger } from "@switchboard/common";
import { createChatModel } from "@switchboard/llm";
import { assertValidAgentName, type CheckpointerHandle, openCheckpointer } from "@switchboard/utils";
import type { MongoClient } from "mongodb";
import { AnchoredAuditLog, AnchorFile } from "./audit/anchor.js";
import type { AuditLog } from "./audit/audit-log.js";
import { AuditTrail } from "./audit/audit-trail.js";
import { AuditRecorder } from "./audit/recorder.js";
import { type AuditSettings, auditKeyProblem, readAuditSettings } from "./audit/settings.js";
import { readAuthSettings } from "./auth/bearer.js";
import { Access } from "./authz/access.js";
import { loadPolicies } from "./authz/policy-source.js";
import { readAuthzSettings } from "./authz/settings.js";
import type { ConversationStore } from "./conversations/deletion.js";
import { LinkedTokenRoutes } from "./credentials/linked-route.js";
import type { LinkableVendor } from "./credentials/linked-tokens.js";
import { readLinkingSettings } from "./credentials/settings.js";
import type { AgentDefinition } from "./definition.js";
import { type RuntimeSettings, readRuntimeSettings } from "./env.js";
import { createHost } from "./extension.js";
import { buildAgentGraph } from "./graph/agent-graph.js";
import { guardedTools } from "./graph/guarded-tools.js";
import type { A2AGrpcHandlers } from "./grpc/a2a-grpc.js";
import { createAgentApp } from "./http/app.js";
import { buildAgentCard, type GrpcInterface } from "./http/card.js";
import { closeWithAnswer } from "./http/close-with-answer.js";
import { countedRequestHandler } from "./http/counted-handler.js";
import { mcpToolsFor } from "./mcp/tools.js";
import { memoryRoutes } from "./memory/routes.js";
import { agentMemory } from "./memory/setup.js";
import { PushDelivery } from "./push/delivery.js";
import { type AgentStores, agentStores } from "./stores/agent-stores.js";
import { AgentRequestHandler } from "./tasks/request-handler.js";
import { createMetrics } from "./telemetry/metrics.js";
import { processTracing } from "./telemetry/process-tracing.js";
import { nameAgentOnRequest } from "./telemetry/request-span.js";
import { readTracingSettings } from "./telemetry/tracing-settings.js";
import { AgentTurnExecutor } from "./turn/executor.js";
import { TurnCheckpoints } from "./turn/turn-checkpoints.js";

/** An agent built and ready, with no listener of its own: a host routes requests to `handle`. */
export interface MountedAgent {
  name: string;
  /** The URL its card names. */
  publicUrl: string;
  /** The agent's own checkpoint saver (tests read what a turn stored through it). */
  checkpointer: BaseCheckpointSaver;
  /** Serves one request whose URL is relative to the agent's root (a host strips `/agents/<id>`). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Whether it answers now (not draining, its stores reachable), for a host's /ready. */
  ready(): Promise<boolean>;
  /**
   * Its A2A gRPC handlers (protocol 1.0 and 0.3), for a host that routes each call to its agent by
   * tenant (grpc/tenant-service.ts): its token check, parameter checks and policies, as on its own port.
   */
  grpcHandlers(): Promise<A2AGrpcHandlers>;
  /**
   * Stops without losing a turn: not ready and turning new requests away at once, the running
   * turns given `graceMs` (default SHUTDOWN_GRACE_SECONDS) to finish, any still running then failed
   * (asking to send again) with their leases released, then closed.
   */
  drain(graceMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ServeOptions {
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** A saver to use instead of the agent's own (benchmarks compare savers this way). */
  checkpointer?: BaseCheckpointSaver;
}

export interface MountOptions extends ServeOptions {
  /** The URL the agent's card names (where the host serves the agent's root). */
  publicUrl: string;
  /**
   * A MongoDB client the host shares between its agents: each still keeps its own collections and
   * metrics, and none closes it (the host does).
   */
  mongo?: MongoClient;
  /** Where the host answers A2A over gRPC and this agent's tenant there, for its card; none: no gRPC. */
  grpc?: GrpcInterface;
  /**
   * The process's service name in traces, should this agent be the first to start tracing
   * (OTEL_SERVICE_NAME wins): a host names itself, its agents told apart by `gen_ai.agent.name`.
   * Default: `switchboard-<agent>`.
   */
  serviceName?: string;
}

/**
 * Builds an agent to be served by a host: everything `serveAgent` starts (MCP servers, its own
 * checkpointer and stores, model, policies, memory, executor, A2A request handler, HTTP app) but no
 * listener. Its name is the definition's (a host's agents share one env: AGENT_NAME names none of
 * them), and its card names `options.publicUrl`. Its MCP tools are its definition's and its model
 * the env's shared settings: the host's `<AGENT>_MCP_*` and `<AGENT>_…` LLM variables are no
 * configured agent's, even one named like a packaged agent.
 */
export async function mountAgent(definition: AgentDefinition, options: MountOptions): Promise<MountedAgent> {
  const env = options.env ?? process.env;
  // It names the agent's collections, metrics and hop audience: checked before anything opens.
  const name = assertValidAgentName(
    definition.name,
    "the mounted agent's definition",
    "give the agent an id of that form",
  );
  const logger = options.logger ?? createLogger({ base: { agent: name } });
  const settings = readRuntimeSettings(env, { name, port: 0 });
  const auth = readAuthSettings(env, name);
  if (auth.mode === "jwt") for (const warning of auth.warnings) logger.warn(warning);
  const built = await buildAgent(definition, {
    ...options,
    env,
    logger,
    name,
    settings,
    auth,
    mounted: true,
  });
  const publicUrl = options.publicUrl.replace(/\/+$/, "");
  const agent = built.mount(publicUrl, options.grpc);
  logger.info({ url: publicUrl, ...built.described }, `${name} agent mounted`);
  return agent;
}

/** A mounted agent as `serveAgent` drives it: its drain's waiting apart from its close. */
export interface AgentMount extends MountedAgent {
  /** A drain without the close: turns new requests away and lets running turns finish or fails them. */
  settle(graceMs?: number): Promise<void>;
  /** Adds A2A's gRPC services on this agent's request handler to a server of the caller's (serve.ts). */
  addGrpcServices(server: GrpcServer): Promise<void>;
}

/** What a built agent tells its start-up log line. */
interface Described {
  llm: string;
  context: string;
  checkpoints: string;
}

/** An agent with everything open but its card and HTTP surface, which wait for its public URL. */
export interface BuiltAgent {
  described: Described;
  /** The rest, on the URL its card names (and the gRPC interface, when it serves gRPC). Call once. */
  mount(publicUrl: string, grpc?: GrpcInterface): AgentMount;
  /** Closes what is open, for a start that fails before `mount`. */
  close(): Promise<void>;
}

/** What the agent builder is given: the settings its caller has already read. */
interface BuildOptions {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  name: string;
  settings: RuntimeSettings;
  auth: ReturnType<typeof readAuthSettings>;
  checkpointer?: BaseCheckpointSaver;
  mongo?: MongoClient;
  serviceName?: string;
  /** Mounted by a host: its env is the host's, so `<AGENT>_MCP_*` and `<AGENT>_…` LLM variables are not the agent's. */
  mounted?: boolean;
}

/** What a turn that did not finish before its agent stopped tells the caller. */
const SHUTDOWN_REASON =
  "This agent replica shut down before the turn finished; send the message again (another replica takes it).";
/** How long a draining agent keeps answering 503 before it closes, at least. */
const READY_NOTICE_MS = 1_000;
/** How long requests still open at the end of a drain get to be answered (stopped turns included). */
const STOP_WAIT_MS = 5_000;

/**
 * Opens the agent's parts: tracing, MCP servers (one that cannot be started stops the start before
 * anything else opens), its own checkpointer (fails fast when MongoDB is configured but
 * unreachable), stores, model, policies, memory and graph. Closed again if any fails.
 */
export async function buildAgent(definition: AgentDefinition, options: BuildOptions): Promise<BuiltAgent> {
  const { env, logger, name, settings } = options;
  // A weak AUDIT_HMAC_KEY stops the start here, before anything opens.
  const auditSettings = readAuditSettings(env);
  // Before anything opens a socket, so the server, fetch and MongoDB are traced; loaded only when on.
  const tracingSettings = readTracingSettings(env, name, options.serviceName);
  const tracing = tracingSettings.enabled
    ? await processTracing.join(tracingSettings.serviceName, tracingSettings.langfuse)
    : undefined;
  if (!tracingSettings.enabled && tracingSettings.problem) logger.warn(tracingSettings.problem);
  try {
    const nativeTools = definition.graph ? [] : definition.tools(env);
    const mcp = await mcpToolsFor(definition, {
      env,
      agent: name,
      logger,
      timeoutMs: settings.mcpStartupTimeoutMs,
      nativeTools,
      agentVariables: !options.mounted,
    });
    // The agent's own checkpointer (by its settings), held here and closed with the agent: another
    // agent in the process has its own (on the host's shared client when one is given).
    let checkpoints: CheckpointerHandle;
    try {
      checkpoints = await openCheckpointer({
        env,
        agentName: name,
        logger,
        ...(options.mongo ? { client: options.mongo } : {}),
      });
    } catch (error) {
      await mcp.close();
      throw error;
    }
    const opened: Opened = { auditSettings, tracingSettings, tracing, nativeTools, mcp, checkpoints };
    try {
      return await buildOn(definition, options, opened);
    } catch (error) {
      await checkpoints.close();
      await mcp.close();
      throw error;
    }
  } catch (error) {
    await tracing?.shutdown();
    throw error;
  }
}

/** What `buildAgent` has read and opened before the rest is built on the agent's checkpointer. */
interface Opened {
  auditSettings: AuditSettings;
  tracingSettings: ReturnType<typeof readTracingSettings>;
  tracing: Awaited<ReturnType<typeof processTracing.join>> | undefined;
  nativeTools: ReturnType<AgentDefinition["tools"]>;
  mcp: Awaited<ReturnType<typeof mcpToolsFor>>;
  checkpoints: CheckpointerHandle;
}

/** The rest of the build, on the agent's own checkpointer (closed with the MCP servers if it fails). */
async function buildOn(
  definition: AgentDefinition,
  options: BuildOptions,
  opened: Opened,
): Promise<BuiltAgent> {
  const { env, logger, name, settings, auth } = options;
  const { auditSettings, tracingSettings, tracing, nativeTools, mcp, checkpoints } = opened;
  const checkpointer = options.checkpointer ?? checkpoints.saver;
  // Keyed when AUDIT_HMAC_KEY is set; required with signed-in users and MongoDB (audit/settings.ts).
  const keyProblem = auditKeyProblem(auditSettings, {
    authMode: auth.mode,
    stored: checkpoints.db !== undefined,
  });
  if (keyProblem && "error" in keyProblem) throw keyProblem.error;
  if (keyProblem) logger.warn(keyProblem.warning);
  const linking = linkingFor(name, env, definition.linkedTokens, logger);
  // Tasks, push configs, leases, audit trail and linked tokens: beside the checkpoints, chosen once.
  const stores = await agentStores(checkpoints, name, {
    checkpointer,
    locks: settings.locks,
    logger,
    audit: {
      ...(auditSettings.retentionDays ? { retentionDays: auditSettings.retentionDays } : {}),
      ...(auditSettings.key ? { key: auditSettings.key } : {}),
    },
    ...(linking.on ? { linking: linking.on } : {}),
  });
  // A mounted agent's env is its host's: `<AGENT>_…` LLM settings there are no configured agent's.
  const llm = await createChatModel({ env, ...(options.mounted ? {} : { agent: name }) });
  // The offline model reads only the newest message (or tool results) and cannot summarize: its
  // "summary" would be its help text in place of the history.
  const context = llm.offline ? undefined : settings.context;
  const turnCheckpoints = new TurnCheckpoints(checkpointer);
  const access = await accessFor({
    agent: name,
    env,
    audit: auditSettings,
    authMode: auth.mode,
    stores,
    logger,
    tracing: tracingSettings.enabled,
  });
  // Long-term memory (store_<agent>): what users asked to be remembered, across conversations.
  const memory = await agentMemory({
    agent: name,
    env,
    logger,
    model: llm.offline ? undefined : llm.model,
    maxContextTokens: context?.maxTokens,
    conversations: stores,
    access: access.access,
    ...(options.mongo ? { mongo: options.mongo } : {}),
    agentVariables: !options.mounted,
  });
  // A host reports the process's metrics once, on its own /metrics; each agent its own.
  const metrics = createMetrics(checkpoints.metrics, { processMetrics: !options.mounted });
  // What the agent adds to the runtime (routes, metrics, deletion steps, cleanup), from `extend` or its graph.
  const audit = new AuditTrail(name, access.log, access.access);
  const { host, additions } = createHost({
    agent: name,
    env,
    logger,
    metrics: metrics.agentMetrics,
    audit,
    mayReach: (agent, caller) => access.access.callerMayReach(access.access.principal(caller), agent),
    principalOf: (caller) => access.access.principal(caller),
    userData: memory.userData,
  });
  const cleanups = additions.cleanups;
  cleanups.push(
    () => mcp.close(),
    () => access.close(),
    () => memory.close(),
  );
  definition.extend?.(host);
  const graph = definition.graph
    ? definition.graph({
        ...host,
        model: llm.model,
        context,
        checkpointer: turnCheckpoints.saver,
        memories: memory.memories,
        guardTools: (tools) => guardedTools(tools, access.access),
      })
    : buildAgentGraph({
        model: llm.model,
        tools: [...nativeTools, ...mcp.tools],
        systemPrompt: definition.systemPrompt,
        checkpointer: turnCheckpoints.saver,
        context,
        logger,
        access: access.access,
        memories: memory.memories,
        maxContextTokens: context?.maxTokens,
      });
  const pushDelivery = new PushDelivery({
    store: stores.pushConfigs,
    allowPrivate: settings.allowPrivateWebhooks,
    logger,
  });
  cleanups.push(() => pushDelivery.close());
  const close = async () => {
    for (const cleanup of cleanups) await cleanup();
    await checkpoints.close();
    // Spans still buffered are exported before the process goes.
    await tracing?.shutdown();
  };
  const { info } = checkpoints;
  const described: Described = {
    llm: llm.offline ? "offline mode" : `${llm.provider} ${llm.modelName}`,
    context: context ? `summarized beyond ${context.maxTokens} tokens` : "whole conversation",
    checkpoints:
      info.backend === "mongodb"
        ? `${info.dbName}.${info.collection}`
        : info.backend === "postgres"
          ? `PostgreSQL schema ${info.schema}`
          : "memory",
  };

  const mount = (publicUrl: string, grpc?: GrpcInterface): AgentMount => {
    let draining = false;
    let closed: Promise<void> | undefined;
    const card = buildAgentCard({ ...definition, name }, publicUrl, {
      bearerAuth: auth.mode === "jwt",
      ...(grpc ? { grpc } : {}),
    });
    const executor = new AgentTurnExecutor({
      agent: name,
      graph,
      checkpoints: turnCheckpoints,
      locks: stores.locks,
      logger,
      metrics,
      // A task the SDK has just given an id: neither its store nor its push configs need be read.
      tasks: {
        willCreate: (taskId, context) => {
          stores.tasks.willCreate(taskId, context);
          stores.pushConfigs.willCreate(taskId, context);
        },
      },
      tracing: tracingSettings.enabled ? { captureContent: tracingSettings.captureContent } : undefined,
      access: access.access,
      memories: memory.memories,
      confirmationExpiryMs: settings.confirmationExpiryMs,
    });
    const requestHandler = new AgentRequestHandler({
      card,
      tasks: stores.tasks,
      executor,
      pushConfigs: stores.pushConfigs,
      pushDelivery,
      ...(stores.follower ? { follower: { ...stores.follower, leaseMs: settings.locks.leaseMs } } : {}),
    });
    const conversations: ConversationStore = { ...stores, hooks: additions.deletionHooks };
    const app = createAgentApp({
      agent: name,
      requestHandler,
      logger,
      ready: () => stores.ready(),
      draining: () => draining,
      maxBodyBytes: settings.maxBodyBytes,
      allowPrivateWebhooks: settings.allowPrivateWebhooks,
      auth,
      conversations,
      metrics,
      // The memory routes come after the agent's own, which win on the same path.
      routes: [...additions.routes, ...memoryRoutes(memory.userData)],
      audit,
      linkedTokens: new LinkedTokenRoutes(name, access.access, linking.off),
      access: access.access,
    });
    // Requests being answered: a drain waits for them, and closes each connection with its answer.
    const answering = new Set<ServerResponse>();
    // gRPC calls being answered (a drain waits for them too; serve.ts closes their server after).
    const answeringGrpc = new Set<Promise<unknown>>();
    const busy = () => answering.size + answeringGrpc.size > 0;
    const grpcDeps = {
      agent: name,
      requestHandler: countedRequestHandler(requestHandler, metrics.a2aRequests),
      auth,
      allowPrivateWebhooks: settings.allowPrivateWebhooks,
      stopping: () => draining || closed !== undefined,
      answering: answeringGrpc,
    };
    let handlersOnce: Promise<A2AGrpcHandlers> | undefined;
    const settle = async (graceMs = settings.shutdownGraceMs) => {
      // Connections stay open until every request has its answer: a new request on one is answered
      // 503 (and the connection closed), which a client or proxy can send elsewhere; a socket closed
      // under a request could not be told from a lost turn.
      draining = true;
      // Each connection closes with its answer: none is left idle for the final close to cut under
      // a request a client or proxy has just sent on it.
      for (const res of answering) closeWithAnswer(res);
      const deadline = Date.now() + graceMs;
      // Even with nothing running, stay a moment: load balancers polling /ready stop sending here first.
      const noticed = Date.now() + Math.min(graceMs, READY_NOTICE_MS);
      while ((busy() || Date.now() < noticed) && Date.now() < deadline) await sleep(50);
      if (executor.runningTurns > 0) {
        logger.warn(
          { turns: executor.runningTurns },
          "turns still running at the end of the grace period; failing them",
        );
        executor.stopAll(SHUTDOWN_REASON);
      }
      // Stopped turns record that and answer; then nothing is cut off but what would not end.
      for (let waited = 0; busy() && waited < STOP_WAIT_MS; waited += 50) await sleep(50);
    };
    const closeOnce = () => {
      closed ??= close();
      return closed;
    };
    return {
      name,
      publicUrl,
      checkpointer,
      handle: (req, res) => {
        if (closed) {
          res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
          res.end(JSON.stringify({ error: `The ${name} agent has stopped here; send the request again.` }));
          return;
        }
        answering.add(res);
        res.once("close", () => answering.delete(res));
        if (tracing) nameAgentOnRequest(name);
        app(req, res);
      },
      ready: async () => !draining && !closed && (await stores.ready()),
      settle,
      // Loaded only where gRPC is served: a host with A2A_GRPC_PORT=off never loads it.
      addGrpcServices: async (server) =>
        (await import("./grpc/a2a-grpc.js")).addA2AGrpcServices(server, grpcDeps),
      grpcHandlers: () => {
        handlersOnce ??= import("./grpc/a2a-grpc.js").then((binding) => binding.a2aGrpcHandlers(grpcDeps));
        return handlersOnce;
      },
      drain: async (graceMs) => {
        await settle(graceMs);
        await closeOnce();
      },
      close: closeOnce,
    };
  };
  return {
    described,
    mount,
    close: async () => {
      await close();
    },
  };
}

/**
 * The agent's policies (a file that Cedar refuses stops the start) and its audit trail, beside its
 * other collections. With AUTH_MODE=jwt and no policy, every signed-in user may use every tool: said
 * once at start-up.
 */
async function accessFor({
  agent,
  env,
  audit,
  authMode,
  stores,
  logger,
  tracing,
}: {
  agent: string;
  env: NodeJS.ProcessEnv;
  audit: AuditSettings;
  authMode: "none" | "jwt";
  stores: AgentStores;
  logger: Logger;
  /** Whether the agent exports traces and logs: its audit lines are then log records too. */
  tracing: boolean;
}): Promise<{ access: Access; log: AuditLog; close(): void }> {
  const read = readAuthzSettings(env);
  // CAIPE's role settings are about signed-in users' groups. Under AUTH_MODE=none nobody signs in: as
  // CAIPE with SSO off, the one local user may do everything (a CAIPE .env sets RBAC_* for its RAG).
  const settings = authMode === "none" && read.rbac ? { ...read, rbac: undefined } : read;
  if (settings !== read) {
    logger.info("RBAC_* role settings apply to signed-in users; with AUTH_MODE=none they are not applied.");
  }
  const policies = loadPolicies(settings, logger);
  if (policies && authMode === "none") {
    logger.warn(
      'Policies are set but AUTH_MODE=none: every caller is the one local principal (Switchboard::User::"local", no groups), so policies written for groups refuse everyone. Set AUTH_MODE=jwt.',
    );
  }
  if (!policies && authMode === "jwt") {
    logger.warn(
      "AUTH_MODE=jwt with no policy: every signed-in user may use every tool of this agent. Set AUTHZ_POLICY_FILE (Cedar) or RBAC_ADMIN_GROUPS / RBAC_READONLY_GROUPS.",
    );
  }
  const stored = stores.auditLog;
  // Each line's sequence number and link leave the process as it is stored: to AUDIT_ANCHOR_FILE,
  // and, with tracing on, in its OpenTelemetry log record (log-records.ts; loaded only then: the
  // logs API is CommonJS only and brings a second, CommonJS copy of @opentelemetry/api).
  const anchor = audit.anchorFile ? AnchorFile.open(audit.anchorFile) : undefined;
  if (!anchor && !tracing && stores.backend === "mongodb" && authMode === "jwt") {
    logger.warn(
      "The audit trail's head is not exported (no AUDIT_ANCHOR_FILE, no OpenTelemetry logs): `pnpm audit:verify` cannot see its newest lines or the whole trail deleted. Set AUDIT_ANCHOR_FILE.",
    );
  }
  const anchored = anchor ? new AnchoredAuditLog(stored, anchor) : stored;
  const log = tracing
    ? new (await import("./audit/log-records.js")).LogRecordingAuditLog(anchored)
    : anchored;
  const access = new Access(
    agent,
    policies?.engine,
    new AuditRecorder(log, agent),
    settings.groupClaims,
    stores.linkedTokens,
  );
  return {
    access,
    log,
    close: () => {
      policies?.close();
      anchor?.close();
    },
  };
}

/**
 * Users' own tokens for the agent's vendor, when the agent takes them and linking is on
 * (credentials/settings.ts): a missing, malformed, weak or changed CREDENTIALS_ENCRYPTION_KEY stops
 * the start with what to set, on every agent (one env file feeds the fleet: a weak key is refused
 * wherever it is set, not only where it is used). Off, GET /linked-tokens says why.
 */
function linkingFor(
  agent: string,
  env: NodeJS.ProcessEnv,
  vendor: LinkableVendor | undefined,
  logger: Logger,
): { on?: { vendor: LinkableVendor; key: Buffer }; off?: { reason: string; vendor?: LinkableVendor } } {
  const settings = readLinkingSettings(env);
  if (!vendor) {
    return {
      off: {
        reason: `The ${agent} agent acts with its own credentials only: its vendor takes no token of a user's own here.`,
      },
    };
  }
  if (!settings.enabled) {
    logger.info(`${vendor.title} tokens of users' own: off. ${settings.reason}`);
    return { off: { reason: settings.reason, vendor } };
  }
  return { on: { vendor, key: settings.key } };
}
