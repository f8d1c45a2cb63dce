import { createServer, type ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createLogger, isSwitchboardError, type Logger, listenHttp } from "@switchboard/common";
import { announceReady, packageDirOwning, readAgentPackage } from "@switchboard/contract";
import { createChatModel } from "@switchboard/llm";
import { type CheckpointerHandle, detectAgentName, openCheckpointer } from "@switchboard/utils";
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
import { readRuntimeSettings } from "./env.js";
import { createHost } from "./extension.js";
import { buildAgentGraph } from "./graph/agent-graph.js";
import { guardedTools } from "./graph/guarded-tools.js";
import { createAgentApp } from "./http/app.js";
import { buildAgentCard } from "./http/card.js";
import { closeWithAnswer } from "./http/close-with-answer.js";
import { mcpToolsFor } from "./mcp/tools.js";
import { memoryRoutes } from "./memory/routes.js";
import { agentMemory } from "./memory/setup.js";
import { PushDelivery } from "./push/delivery.js";
import { type AgentStores, agentStores } from "./stores/agent-stores.js";
import { AgentRequestHandler } from "./tasks/request-handler.js";
import { createMetrics } from "./telemetry/metrics.js";
import { processTracing } from "./telemetry/process-tracing.js";
import { readTracingSettings } from "./telemetry/tracing-settings.js";
import type { AgentTool } from "./tools/define-tool.js";
import { AgentTurnExecutor } from "./turn/executor.js";
import { TurnCheckpoints } from "./turn/turn-checkpoints.js";

export interface RunningAgent {
  name: string;
  /** The URL it listens on (loopback form of the bound address). */
  url: string;
  publicUrl: string;
  /** The agent's own checkpoint saver (tests read what a turn stored through it). */
  checkpointer: BaseCheckpointSaver;
  /**
   * Shuts down without losing a turn: not ready and turning new requests away at once, the running
   * turns given `graceMs` (default SHUTDOWN_GRACE_SECONDS) to finish, any still running then failed
   * (asking to send again) with their leases released, then closed.
   */
  drain(graceMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** What a turn that did not finish before its replica shut down tells the caller. */
const SHUTDOWN_REASON =
  "This agent replica shut down before the turn finished; send the message again (another replica takes it).";

export interface ServeOptions {
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  /** A saver to use instead of the agent's own (benchmarks compare savers this way). */
  checkpointer?: BaseCheckpointSaver;
}

/**
 * Starts an agent: checkpointer (fails fast when MongoDB is configured but unreachable), LLM,
 * LangGraph agent, durable task store, and the A2A server on PORT.
 */
export async function serveAgent(
  definition: AgentDefinition,
  options: ServeOptions = {},
): Promise<RunningAgent> {
  const env = options.env ?? process.env;
  const name = agentName(definition, env);
  const logger = options.logger ?? createLogger({ base: { agent: name } });
  const settings = readRuntimeSettings(env, { name, port: declaredPort() });
  const auth = readAuthSettings(env, name);
  if (auth.mode === "jwt") for (const warning of auth.warnings) logger.warn(warning);
  // A weak AUDIT_HMAC_KEY stops the start here, before anything opens.
  const auditSettings = readAuditSettings(env);
  if (auth.mode === "none" && !isLoopback(settings.host)) {
    logger.warn(
      { host: settings.host },
      "AUTH_MODE=none while listening beyond loopback: anyone who can reach this port can use the agent. Set AUTH_MODE=jwt to require tokens.",
    );
  }

  // Before anything opens a socket, so the server, fetch and MongoDB are traced; loaded only when on.
  const tracingSettings = readTracingSettings(env, name);
  const tracing = tracingSettings.enabled
    ? await processTracing.join(tracingSettings.serviceName, tracingSettings.langfuse)
    : undefined;
  if (!tracingSettings.enabled && tracingSettings.problem) logger.warn(tracingSettings.problem);

  // MCP servers first: one that cannot be started or reached stops the agent before anything else opens.
  const nativeTools = definition.graph ? [] : definition.tools(env);
  const mcp = await mcpToolsFor(definition, {
    env,
    agent: name,
    logger,
    timeoutMs: settings.mcpStartupTimeoutMs,
    nativeTools,
  });
  // The agent's own checkpointer (by its settings), held here and closed with the agent: another
  // agent in the process has its own. Fails fast when MongoDB is configured but unreachable.
  const checkpoints = await openCheckpointer({ env, agentName: name, logger });
  const started: Started = {
    env,
    logger,
    name,
    settings,
    auth,
    auditSettings,
    tracingSettings,
    tracing,
    nativeTools,
    mcp,
  };
  try {
    return await serveWith(definition, options, started, checkpoints);
  } catch (error) {
    await checkpoints.close();
    await mcp.close();
    throw error;
  }
}

/** What serveAgent has read and started before the agent's checkpointer opens. */
interface Started {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  name: string;
  settings: ReturnType<typeof readRuntimeSettings>;
  auth: ReturnType<typeof readAuthSettings>;
  auditSettings: AuditSettings;
  tracingSettings: ReturnType<typeof readTracingSettings>;
  tracing: Awaited<ReturnType<typeof processTracing.join>> | undefined;
  nativeTools: AgentTool[];
  mcp: Awaited<ReturnType<typeof mcpToolsFor>>;
}

/** The rest of the start, on the agent's own checkpointer: closed (with the MCP servers) if it fails. */
async function serveWith(
  definition: AgentDefinition,
  options: ServeOptions,
  started: Started,
  checkpoints: CheckpointerHandle,
): Promise<RunningAgent> {
  const { env, logger, name, settings, auth, auditSettings, tracingSettings, tracing, nativeTools, mcp } =
    started;
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
  const llm = await createChatModel({ env, agent: name });
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
  });
  const metrics = createMetrics(checkpoints.metrics);
  // What the agent adds to the runtime (routes, metrics, deletion steps, cleanup), from `extend` or its graph.
  const audit = new AuditTrail(name, access.log, access.access);
  const { host, additions } = createHost({
    agent: name,
    env,
    logger,
    metrics: metrics.agentMetrics,
    audit,
    mayReach: (agent, caller) => access.access.callerMayReach(access.access.principal(caller), agent),
    userData: memory.userData,
  });
  const cleanups = additions.cleanups;
  cleanups.push(
    () => mcp.close(),
    () => access.close(),
    () => memory.close(),
  );
  let draining = false;
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

  // Bind first: with PORT=0 the card's default URL needs the port the system picked.
  const server = createServer();
  const port = await listenHttp(server, settings.port, settings.host);
  const publicUrl = settings.publicUrl ?? `http://localhost:${port}`;
  const card = buildAgentCard({ ...definition, name }, publicUrl, { bearerAuth: auth.mode === "jwt" });
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
  // Requests being answered: a drain closes the connections only once none is left.
  const answering = new Set<ServerResponse>();
  server.on("request", (_req, res) => {
    answering.add(res);
    res.once("close", () => answering.delete(res));
  });
  server.on(
    "request",
    createAgentApp({
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
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const { info } = checkpoints;
  logger.info(
    {
      url: publicUrl,
      port,
      llm: llm.offline ? "offline mode" : `${llm.provider} ${llm.modelName}`,
      context: context ? `summarized beyond ${context.maxTokens} tokens` : "whole conversation",
      checkpoints:
        info.backend === "mongodb"
          ? `${info.dbName}.${info.collection}`
          : info.backend === "postgres"
            ? `PostgreSQL schema ${info.schema}`
            : "memory",
    },
    `${name} agent ready`,
  );
  announceReady({ agent: name, port, url: publicUrl });
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    for (const cleanup of cleanups) await cleanup();
    await checkpoints.close();
    // Spans still buffered are exported before the process goes.
    await tracing?.shutdown();
  };
  return {
    name,
    url,
    publicUrl,
    checkpointer,
    drain: async (graceMs = settings.shutdownGraceMs) => {
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
      while ((answering.size > 0 || Date.now() < noticed) && Date.now() < deadline) await sleep(50);
      if (executor.runningTurns > 0) {
        logger.warn(
          { turns: executor.runningTurns },
          "turns still running at the end of the grace period; failing them",
        );
        executor.stopAll(SHUTDOWN_REASON);
      }
      // Stopped turns record that and answer; then nothing is cut off but what would not end.
      for (let waited = 0; answering.size > 0 && waited < STOP_WAIT_MS; waited += 50) await sleep(50);
      await close();
    },
    close,
  };
}

/** How long a draining replica keeps answering 503 before it closes, at least. */
const READY_NOTICE_MS = 1_000;
/** How long requests still open at the end of a drain get to be answered (stopped turns included). */
const STOP_WAIT_MS = 5_000;

/** The agent's name: AGENT_NAME, else its package's name, else the definition's. */
function agentName(definition: AgentDefinition, env: NodeJS.ProcessEnv): string {
  try {
    return detectAgentName({ env }).name;
  } catch (error) {
    if (isSwitchboardError(error) && error.code === "agent-name.undetected") return definition.name;
    throw error;
  }
}

/** The port the running agent's package declares, for when PORT is unset. */
function declaredPort(): number | undefined {
  const dir = process.argv[1] ? packageDirOwning(process.argv[1]) : undefined;
  return dir ? readAgentPackage(dir).port : undefined;
}

/**
 * The whole life of an agent process: serve, stop cleanly on SIGTERM/SIGINT, and on a start-up
 * failure print one clear line and exit non-zero.
 */
export async function runAgent(definition: AgentDefinition): Promise<void> {
  const logger = createLogger({ base: { agent: definition.name } });
  try {
    const agent = await serveAgent(definition, { logger });
    const stop = async (signal: string) => {
      logger.info({ signal }, "shutting down: finishing running turns");
      await agent.drain();
      process.exit(0);
    };
    process.once("SIGTERM", () => void stop("SIGTERM"));
    process.once("SIGINT", () => void stop("SIGINT"));
  } catch (error) {
    const message = isSwitchboardError(error) ? error.message : String(error);
    logger.fatal(
      { err: isSwitchboardError(error) ? undefined : error },
      `${definition.name} agent cannot start: ${message}`,
    );
    process.exit(1);
  }
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
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
