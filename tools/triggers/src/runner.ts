import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import type { Logger } from "@switchboard/common";
import type { TaskDefinition } from "./config.js";
import type { Deliveries } from "./deliveries.js";
import type { Delivery, Destinations } from "./destinations.js";
import { promptFor, titleFor } from "./prompt.js";
import type { ServiceToken } from "./service-token.js";

const SOURCES = {
  alertmanager: "Prometheus Alertmanager",
  github: "GitHub",
  pagerduty: "PagerDuty",
  generic_hmac: "webhook",
} as const;

/** Who sent what starts a run, as the agent is told. */
function sourceOf(task: TaskDefinition): string {
  return task.trigger.kind === "cron" ? "schedule" : SOURCES[task.trigger.provider];
}

export type RunEnd = "success" | "failed" | "input-required";

/** Runs a claimed delivery: the task's agent over A2A, its answer to each destination, the outcome recorded. */
export class Runner {
  private readonly connections = new Map<string, Promise<AgentConnection>>();

  constructor(
    private readonly deps: {
      supervisorUrl: string;
      timeoutMs: number;
      deliveries: Deliveries;
      destinations: Destinations;
      /** The service's token (AUTH_MODE=jwt); none: the agents take the local principal. */
      token: ServiceToken | undefined;
      logger: Logger;
    },
  ) {}

  private connect(url: string): Promise<AgentConnection> {
    const known = this.connections.get(url);
    if (known) return known;
    const connection = connectAgent(url, {
      timeoutMs: this.deps.timeoutMs,
      cardRetries: 1,
      logger: this.deps.logger,
    });
    // A failed connection is tried again by the next run.
    connection.catch(() => this.connections.delete(url));
    this.connections.set(url, connection);
    return connection;
  }

  /** Runs it to its end; resolves with how it ended. */
  async run(task: TaskDefinition, runId: string, payload: unknown): Promise<RunEnd> {
    const { deliveries, logger } = this.deps;
    const log = logger.child({ task: task.id, run: runId });
    // Held while it runs: a replica that dies stops renewing, and another reports the run lost.
    const renewal = setInterval(
      () =>
        void deliveries.renew(runId).catch((error: unknown) => log.warn({ err: error }, "Lease not renewed")),
      Math.max(250, deliveries.leaseMs / 3),
    );
    try {
      const title = titleFor(task.title ?? task.name, payload) || task.name;
      const opened: Delivery[] = [];
      for (const destination of task.destinations) {
        try {
          const delivery = await this.deps.destinations.open(destination, title);
          opened.push(delivery);
          if (delivery.thread) await deliveries.threadOf(runId, delivery.thread);
        } catch (error) {
          log.warn(
            { err: error, destination: destination.kind },
            "A destination could not be opened; the run goes on",
          );
        }
      }
      const { status, text } = await this.ask(task, runId, payload);
      log.info({ status }, "Triggered run finished");
      for (const delivery of opened) {
        await delivery
          .finish({ taskId: task.id, runId, title, status, text })
          .catch((error: unknown) => log.warn({ err: error }, "An answer could not be delivered"));
      }
      await deliveries.finish(runId, status, status === "failed" ? text.slice(0, 1_000) : undefined);
      return status;
    } finally {
      clearInterval(renewal);
    }
  }

  /** The task's agent, asked once: how the run ended and what it said. */
  private async ask(
    task: TaskDefinition,
    runId: string,
    payload: unknown,
  ): Promise<{ status: RunEnd; text: string }> {
    try {
      const agent = await this.connect(task.agentUrl ?? this.deps.supervisorUrl);
      const token = await this.deps.token?.get();
      const result = await agent.send({
        ...(token ? { token } : {}),
        text: promptFor(task.prompt, payload, sourceOf(task)),
        metadata: { trigger: { task_id: task.id, run_id: runId, trigger: task.trigger.kind } },
        signal: AbortSignal.timeout(task.timeoutMs ?? this.deps.timeoutMs),
      });
      if (result.state === "completed") return { status: "success", text: result.text };
      if (result.state === "input-required")
        return { status: "input-required", text: result.question ?? result.text };
      return { status: "failed", text: result.text || `The agent ended the run as ${result.state}.` };
    } catch (error) {
      return { status: "failed", text: error instanceof Error ? error.message : String(error) };
    }
  }
}
