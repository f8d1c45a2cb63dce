import { createServer } from "node:http";
import { type Logger, listenHttp, SwitchboardError } from "@switchboard/common";
import express from "express";
import { MongoClient } from "mongodb";
import { loadTasks, type TaskDefinition } from "./config.js";
import { Deliveries } from "./deliveries.js";
import { Destinations } from "./destinations.js";
import type { TriggersSettings } from "./env.js";
import { createTriggerMetrics } from "./metrics.js";
import { Runner } from "./runner.js";
import { armSchedules } from "./schedules.js";
import { ServiceToken } from "./service-token.js";
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
  const destinations = new Destinations(settings.slack);
  for (const task of tasks.values())
    for (const destination of task.destinations) {
      const missing = destinations.missing(destination);
      if (missing) throw new SwitchboardError("triggers.config", "user", `Task "${task.id}": ${missing}.`);
    }
  const mongo = new MongoClient(settings.mongo.uri, { serverSelectionTimeoutMS: 10_000 });
  await mongo.connect();
  const db = mongo.db(settings.mongo.dbName);
  const deliveries = await Deliveries.open(db, settings.instanceTtlDays, settings.runLeaseMs);
  const runner = new Runner({
    supervisorUrl: settings.supervisorUrl,
    timeoutMs: settings.runTimeoutMs,
    deliveries,
    destinations,
    token: settings.identity ? new ServiceToken(settings.identity) : undefined,
    logger,
  });
  const metrics = createTriggerMetrics();
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
  // Every replica looks for runs whose replica died, and the first to take one reports it where it goes.
  const sweep = async () => {
    for (let lost = await deliveries.takeAbandoned(); lost; lost = await deliveries.takeAbandoned()) {
      const task = tasks.get(lost.taskId);
      logger.warn(
        { task: lost.taskId, run: lost.runId, owner: lost.owner },
        "A run's receiver stopped; reported failed",
      );
      if (!task) continue;
      const outcome = {
        taskId: task.id,
        runId: lost.runId,
        title: task.name,
        status: "failed" as const,
        text: lost.error ?? "",
      };
      for (const destination of task.destinations)
        await destinations
          .report(destination, outcome, lost.thread)
          .catch((error: unknown) =>
            logger.warn({ err: error, task: task.id }, "A lost run could not be reported"),
          );
    }
  };
  const sweeper = setInterval(
    () => void sweep().catch((error: unknown) => logger.warn({ err: error }, "Lost runs not swept")),
    Math.max(250, settings.runLeaseMs / 2),
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
  http.get("/api/v1/tasks/:taskId/runs", async (req, res) => {
    if (!tasks.has(req.params.taskId)) {
      res.status(404).json({ error: "No such task." });
      return;
    }
    const runs = await deliveries.recent(req.params.taskId);
    res.json({
      runs: runs.map(({ runId, deliveryId, status, receivedAt, finishedAt, thread, error }) => ({
        run_id: runId,
        delivery_id: deliveryId,
        status,
        received_at: receivedAt,
        finished_at: finishedAt,
        thread,
        error,
      })),
    });
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
