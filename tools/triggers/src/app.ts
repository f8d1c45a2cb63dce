import { createServer } from "node:http";
import { verifyUserToken } from "@switchboard/agent-runtime/auth/bearer";
import { tracingOn } from "@switchboard/agent-runtime/telemetry/service-tracing";
import { type Logger, listenHttp, SwitchboardError } from "@switchboard/common";
import express from "express";
import { MongoClient } from "mongodb";
import { loadTasks, type TaskDefinition } from "./config.js";
import { Deliveries, type DeliveryRecord } from "./deliveries.js";
import { Destinations } from "./destinations.js";
import type { TriggersSettings } from "./env.js";
import { createTriggerMetrics } from "./metrics.js";
import { fromPayload, Runner } from "./runner.js";
import { armSchedules } from "./schedules.js";
import { principalsFor } from "./service-token.js";
import { Refusal, verifyDelivery } from "./verify.js";

export interface TriggersService {
  url: string;
  port: number;
  /** Resolves when every run this process started has ended (tests, and a graceful stop). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Largest body taken: an Alertmanager group of a few hundred alerts fits; more is refused (413). */
const BODY_LIMIT = "1mb";

/** A run as the history shows it (API and the web chat's Triggers page). */
function runView(run: DeliveryRecord) {
  const { runId, taskId, deliveryId, status, receivedAt, finishedAt, thread, error, confirmation, spend } =
    run;
  return {
    run_id: runId,
    task_id: taskId,
    delivery_id: deliveryId,
    status,
    received_at: receivedAt,
    finished_at: finishedAt,
    // Every turn of a run carries this trace id (run-trace.ts' runTraceIds).
    trace_id: runId.replace(/-/g, ""),
    thread,
    error,
    // What its turns cost on the model, their subagents' included (as each agent reported it).
    ...(spend ? { spend: { model_calls: spend.modelCalls, tokens: spend.tokens } } : {}),
    ...(confirmation
      ? {
          confirmation: {
            question: confirmation.question,
            expires_at: confirmation.expiresAt,
            ...(confirmation.decision
              ? { decision: confirmation.decision, decided_by: confirmation.decidedBy }
              : {}),
          },
        }
      : {}),
  };
}

/**
 * The receiver: `POST /api/v1/hooks/:taskId` (CAIPE's path) verifies a delivery as its vendor signs it,
 * claims it in MongoDB, answers 202 at once and runs it; `GET /api/v1/tasks/:taskId/runs` is its history.
 */
export async function startTriggers(
  settings: TriggersSettings,
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<TriggersService> {
  const tasks = loadTasks(settings.configFile, env, settings.webhookSecret);
  const destinations = new Destinations(settings.accounts);
  for (const task of tasks.values())
    for (const destination of task.destinations) {
      const missing = destinations.missing(destination);
      if (missing) throw new SwitchboardError("triggers.config", "user", `Task "${task.id}": ${missing}.`);
    }
  const principals = principalsFor(settings.identity, tasks.values());
  const mongo = new MongoClient(settings.mongo.uri, { serverSelectionTimeoutMS: 10_000 });
  await mongo.connect();
  const db = mongo.db(settings.mongo.dbName);
  const deliveries = await Deliveries.open(db, settings.instanceTtlDays, settings.runLeaseMs);
  const runner = new Runner({
    supervisorUrl: settings.supervisorUrl,
    timeoutMs: settings.runTimeoutMs,
    confirmationExpiryMs: settings.confirmationExpiryMs,
    deliveries,
    destinations,
    principals,
    tracing: tracingOn(env),
    logger,
  });
  const metrics = createTriggerMetrics(() => deliveries.waiting());
  const running = new Set<Promise<void>>();
  const start = (task: TaskDefinition, runId: string, payload: unknown) => {
    const began = performance.now();
    metrics.running.inc();
    const run = runner
      .run(task, runId, payload)
      .then((status) => {
        metrics.runs.inc({ task: task.id, status });
        metrics.duration.observe({ task: task.id, status }, (performance.now() - began) / 1000);
      })
      .catch((error: unknown) =>
        logger.error({ err: error, task: task.id }, "A triggered run could not be recorded"),
      )
      .finally(() => {
        metrics.running.dec();
        running.delete(run);
      });
    running.add(run);
  };
  /** Says where a run goes that it ended without its agent: its receiver died, or its change expired. */
  const reportEnded = async (run: DeliveryRecord, status: "failed" | "expired") => {
    metrics.runs.inc({ task: run.taskId, status: status === "failed" ? "lost" : "expired" });
    const task = tasks.get(run.taskId);
    if (!task) return;
    const outcome = { taskId: task.id, runId: run.runId, title: task.name, status, text: run.error ?? "" };
    // A target from the payload is used only as filled and checked when the run started (kept with it).
    const places = run.destinations ?? task.destinations.filter((destination) => !fromPayload(destination));
    for (const destination of places)
      await destinations
        .report(destination, outcome, run.thread)
        .catch((error: unknown) =>
          logger.warn({ err: error, task: task.id }, "An ended run could not be reported"),
        );
  };
  // Every replica looks for runs whose replica died and changes that expired unanswered; the first to
  // take one (a conditional update) reports it where it goes.
  const sweep = async () => {
    for (let lost = await deliveries.takeAbandoned(); lost; lost = await deliveries.takeAbandoned()) {
      logger.warn(
        { task: lost.taskId, run: lost.runId, owner: lost.owner },
        "A run's receiver stopped; reported failed",
      );
      await reportEnded(lost, "failed");
    }
    for (let expired = await deliveries.takeExpired(); expired; expired = await deliveries.takeExpired()) {
      logger.info({ task: expired.taskId, run: expired.runId }, "A run's change expired unanswered");
      await reportEnded(expired, "expired");
    }
  };
  const sweeper = setInterval(
    () => void sweep().catch((error: unknown) => logger.warn({ err: error }, "Lost runs not swept")),
    Math.max(250, Math.min(settings.runLeaseMs, settings.confirmationExpiryMs) / 2),
  );
  sweeper.unref();
  // Every replica arms every tick; the claim (task id + due instant) lets one of them run it.
  const schedules = armSchedules(
    tasks.values(),
    async (task, tick) => {
      const claim = await deliveries.claim(task.id, `tick:${tick.payload.tick}`);
      metrics.deliveries.inc({ task: task.id, outcome: claim.fresh ? "accepted" : "duplicate" });
      if (claim.fresh) start(task, claim.runId, tick.payload);
    },
    logger,
  );

  const http = express();
  http.disable("x-powered-by");
  http.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  // Ready once its tasks are read and MongoDB answers: both happen before the server listens.
  http.get("/ready", (_req, res) => {
    res.json({ status: "ready" });
  });
  http.post(
    "/api/v1/hooks/:taskId",
    express.raw({ type: () => true, limit: BODY_LIMIT }),
    async (req, res) => {
      const task: TaskDefinition | undefined = tasks.get(req.params.taskId);
      if (!task?.enabled || task.trigger.kind !== "webhook") {
        res.status(404).json({ error: "No such webhook task." });
        return;
      }
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let verified: ReturnType<typeof verifyDelivery>;
      try {
        verified = verifyDelivery(task.trigger, req.headers, body, {
          replayWindowSeconds: settings.replayWindowSeconds,
          now: Date.now,
        });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        logger.warn({ task: task.id, reason: error.message }, "Delivery refused");
        metrics.deliveries.inc({ task: task.id, outcome: "refused" });
        res.status(error.status).json({ error: error.message });
        return;
      }
      if (verified.kind === "ping") {
        metrics.deliveries.inc({ task: task.id, outcome: "ping" });
        res.status(200).json({ status: "pong" });
        return;
      }
      const claim = await deliveries.claim(task.id, verified.deliveryId);
      metrics.deliveries.inc({ task: task.id, outcome: claim.fresh ? "accepted" : "duplicate" });
      if (!claim.fresh) {
        res.status(200).json({ status: "duplicate", run_id: claim.runId, run_status: claim.status });
        return;
      }
      res.status(202).json({ status: "accepted", run_id: claim.runId });
      start(task, claim.runId, verified.payload);
    },
  );
  http.get("/metrics", async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  /**
   * Who asks, under AUTH_MODE=jwt: a person's token verified as the agents verify it, or a 401. The
   * run history shows what triggered runs did; an answer to a change is that person's to give (the
   * agent then decides by its policy whether they may). Under none: the local principal.
   */
  const caller = async (
    req: express.Request,
    res: express.Response,
  ): Promise<{ subject: string; token: string | undefined } | undefined> => {
    if (settings.auth.mode === "none") return { subject: "local", token: undefined };
    const token = /^Bearer (\S+)$/i.exec(req.header("authorization") ?? "")?.[1];
    const verified = token
      ? await verifyUserToken(settings.auth, token)
      : "a bearer token is required (Authorization: Bearer <JWT>); sign in to the web chat";
    if (typeof verified === "string") {
      res
        .status(401)
        .set("WWW-Authenticate", 'Bearer error="invalid_token"')
        .json({ error: `Unauthorized: ${verified}.` });
      return undefined;
    }
    return { subject: verified.subject, token };
  };
  http.get("/api/v1/tasks", async (req, res) => {
    if (!(await caller(req, res))) return;
    res.json({
      tasks: [...tasks.values()].map((task) => ({
        id: task.id,
        name: task.name,
        trigger: task.trigger.kind === "cron" ? "schedule" : task.trigger.provider,
        ...(task.trigger.kind === "cron"
          ? { schedule: task.trigger.schedule, timezone: task.trigger.timezone }
          : {}),
        enabled: task.enabled,
        destinations: task.destinations.map((destination) => destination.kind),
      })),
    });
  });
  http.get(["/api/v1/runs", "/api/v1/tasks/:taskId/runs"], async (req, res) => {
    if (!(await caller(req, res))) return;
    const taskId = typeof req.params.taskId === "string" ? req.params.taskId : undefined;
    if (taskId !== undefined && !tasks.has(taskId)) {
      res.status(404).json({ error: "No such task." });
      return;
    }
    const runs = await deliveries.recent(taskId);
    res.json({ runs: runs.map(runView) });
  });
  http.post("/api/v1/runs/:runId/decision", express.json({ limit: "4kb" }), async (req, res) => {
    const who = await caller(req, res);
    if (!who) return;
    const decision = (req.body as { decision?: unknown } | undefined)?.decision;
    if (decision !== "approve" && decision !== "decline") {
      res.status(400).json({ error: 'Send { "decision": "approve" } or { "decision": "decline" }.' });
      return;
    }
    const run = await deliveries.get(req.params.runId);
    const task = run ? tasks.get(run.taskId) : undefined;
    if (!run || !task) {
      res.status(404).json({ error: "No such run." });
      return;
    }
    const decided = await runner.decide(task, run.runId, { decision, ...who });
    if (!decided) {
      const now = await deliveries.get(run.runId);
      const expired =
        now?.status === "expired" || (now?.confirmation && now.confirmation.expiresAt <= new Date());
      res.status(expired ? 410 : 409).json({
        error: expired
          ? "The change expired unanswered; nothing was done. Trigger the task again if it is still wanted."
          : `Nothing waits for an answer on this run (it is ${now?.status ?? "gone"}).`,
        status: now?.status,
      });
      return;
    }
    if ("refused" in decided) {
      res.status(decided.httpStatus).json({ error: decided.refused, status: "input-required" });
      return;
    }
    metrics.runs.inc({ task: task.id, status: decided.status });
    res.json({ status: decided.status });
  });

  // Express's own error page shows the stack; a sender gets the reason in a line, and a 5xx (MongoDB
  // down, say) tells it to retry, which the dedupe makes safe.
  http.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      res
        .status(status)
        .json({ error: status === 413 ? `The body is larger than ${BODY_LIMIT}.` : "Bad request." });
      return;
    }
    logger.error({ err: error }, "A delivery could not be taken");
    res.status(503).json({ error: "The delivery could not be taken now; send it again." });
  });
  const server = createServer(http);
  const port = await listenHttp(server, settings.port, settings.host);
  const host = settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host;
  const idle = async () => {
    while (running.size > 0) await Promise.allSettled([...running]);
  };
  return {
    url: `http://${host}:${port}`,
    port,
    idle,
    stop: async () => {
      schedules.stop();
      clearInterval(sweeper);
      await new Promise((resolve) => server.close(resolve));
      await idle();
      await mongo.close();
    },
  };
}
