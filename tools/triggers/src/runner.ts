import {
  type AgentConnection,
  APPROVE,
  APPROVER_HEADER,
  connectAgent,
  DECLINE,
  readQuestion,
  type TurnResult,
} from "@switchboard/a2a-client";
import {
  BUDGET_HEADER,
  chargedSpend,
  formatBudget,
  SPEND_METADATA_KEY,
  type Spend,
} from "@switchboard/agent-runtime/turn/budget";
import type { Logger } from "@switchboard/common";
import { PastDeadline, turnWithin } from "./agent-turn.js";
import type { Destination, TaskDefinition } from "./config.js";
import type { Deliveries, DeliveryRecord } from "./deliveries.js";
import type { Destinations, Outcome, RunEnd } from "./destinations.js";
import { promptFor, titleFor } from "./prompt.js";
import { inRunSpan, traceparentOf } from "./run-trace.js";
import type { Principals } from "./service-token.js";

export type { RunEnd } from "./destinations.js";

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

/** How a turn with the agent ended, as a run sees it. */
interface Ended {
  status: RunEnd;
  text: string;
  /** What the turn spent, as the agent reported it (agent-runtime's SPEND_METADATA_KEY), charged as a hop's is. */
  spend?: Spend;
  /** The agent's task that asks to confirm a change (status `input-required`). */
  asks?: { taskId: string; contextId: string; question: string; argsHashes?: string[] };
}

/** An approver's answer, and who gave it. */
export interface Decision {
  decision: "approve" | "decline";
  /** The approver's verified subject, for the record; `local` under AUTH_MODE=none. */
  subject: string;
  /** Their own token (AUTH_MODE=jwt): the agent verifies it and its policy decides whether they may. */
  token: string | undefined;
}

/** What an answer did: the run's new status, or why it did not count (the run still waits). */
export type Decided = { status: RunEnd } | { refused: string; httpStatus: 401 | 403 };

/**
 * Runs a claimed delivery: the task's agent over A2A, its answer to each destination, the outcome
 * recorded. A change the agent asks to make waits for an approver (`decide`) until it expires.
 */
export class Runner {
  private readonly connections = new Map<string, Promise<AgentConnection>>();

  constructor(
    private readonly deps: {
      supervisorUrl: string;
      timeoutMs: number;
      /** CONFIRMATION_EXPIRY_SECONDS in ms: how long a change waits for its approver. */
      confirmationExpiryMs: number;
      deliveries: Deliveries;
      destinations: Destinations;
      /** Each task's client (AUTH_MODE=jwt: its own, or the service's); none: the agents take the local principal. */
      principals: Principals | undefined;
      /** Whether this service exports spans (run-trace.ts): each run is then a trace of its own. */
      tracing?: boolean;
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

  /** Runs it to its end (or to a change waiting for its approver); resolves with how it ended. */
  async run(task: TaskDefinition, runId: string, payload: unknown): Promise<RunEnd> {
    const log = this.deps.logger.child({ task: task.id, run: runId });
    return this.traced("trigger.run", task, runId, log, async () => {
      const title = titleFor(task.title ?? task.name, payload) || task.name;
      // Targets from the payload are filled and checked once, and kept with the run for whoever reports it.
      const places: Destination[] = [];
      for (const destination of task.destinations) {
        try {
          places.push(this.deps.destinations.resolve(destination, payload));
        } catch (error) {
          log.warn(
            { err: error, destination: destination.kind },
            "A destination was left out; the run goes on",
          );
        }
      }
      // Kept while the thread opens (one write, and only when a target came from the payload).
      const kept = places.some(fromPayload)
        ? this.deps.deliveries.destinationsOf(runId, places)
        : Promise.resolve();
      // A run answers in one thread: the first Slack destination's.
      let thread: DeliveryRecord["thread"];
      const first = places.find((destination) => destination.kind === "slack");
      if (first) {
        try {
          thread = await this.deps.destinations.open(first, title);
          if (thread) await this.deps.deliveries.threadOf(runId, thread);
        } catch (error) {
          log.warn({ err: error }, "The run's Slack thread could not be opened; the run goes on");
        }
      }
      await kept;
      const ended = await this.ask(task, runId, {
        text: promptFor(task.prompt, payload, sourceOf(task)),
        metadata: { trigger: { task_id: task.id, run_id: runId, trigger: task.trigger.kind } },
      });
      return this.conclude(task, runId, { title, thread, places }, ended, log);
    });
  }

  /**
   * An approver's answer to the change a run waits on. The run is taken with one conditional update
   * (a second press, or one after the expiry, finds nothing waiting); the agent then decides, where
   * the change runs, whether this approver may answer for the trigger's principal (the `approve`
   * action). A refused answer leaves the run waiting as it was.
   */
  async decide(task: TaskDefinition, runId: string, answer: Decision): Promise<Decided | undefined> {
    const { deliveries } = this.deps;
    const taken = await deliveries.takeDecision(runId, answer.decision, answer.subject);
    const change = taken?.confirmation;
    if (!taken || !change) return undefined;
    const log = this.deps.logger.child({ task: task.id, run: runId });
    log.info({ decision: answer.decision, by: answer.subject }, "A waiting change was answered");
    return this.traced("trigger.decision", task, runId, log, async () => {
      const ended = await this.ask(task, runId, {
        text: answer.decision === "approve" ? APPROVE : DECLINE,
        taskId: change.taskId,
        contextId: change.contextId,
        decision: answer.decision,
        ...(change.argsHashes ? { argsHashes: change.argsHashes } : {}),
        ...(answer.token ? { headers: { [APPROVER_HEADER]: `Bearer ${answer.token}` } } : {}),
      });
      const refused =
        ended.status === "input-required"
          ? readQuestion(ended.text).refusedApproval
          : ended.status === "failed" && /Switchboard-Approver/.test(ended.text)
            ? ended.text
            : undefined;
      if (refused) {
        await deliveries.waitAgain(runId);
        log.warn({ by: answer.subject, reason: refused }, "An answer to a waiting change did not count");
        return { refused, httpStatus: ended.status === "failed" ? 401 : 403 } as const;
      }
      const status = await this.conclude(
        task,
        runId,
        {
          title: task.name,
          thread: taken.thread,
          places: taken.destinations ?? task.destinations.filter((destination) => !fromPayload(destination)),
        },
        answer.decision === "decline" && ended.status === "success"
          ? { ...ended, status: "declined" }
          : ended,
        log,
      );
      return { status };
    });
  }

  /** `held`, in a span of the run's trace (run-trace.ts) that says how the turn ended. */
  private traced<T extends RunEnd | Decided>(
    name: "trigger.run" | "trigger.decision",
    task: TaskDefinition,
    runId: string,
    log: Logger,
    work: () => Promise<T>,
  ): Promise<T> {
    const attributes = {
      "switchboard.trigger.task": task.id,
      "switchboard.trigger.run_id": runId,
      "switchboard.trigger.kind": task.trigger.kind === "cron" ? "schedule" : task.trigger.provider,
    };
    return inRunSpan(name, { runId, attributes }, async (span) => {
      const ended = await this.held(runId, log, work);
      span.setAttribute("switchboard.trigger.status", statusOf(ended));
      return ended;
    });
  }

  /** Holds the run's lease while `work` goes on: a replica that dies stops renewing, and another reports it. */
  private async held<T>(runId: string, log: Logger, work: () => Promise<T>): Promise<T> {
    const { deliveries } = this.deps;
    const renewal = setInterval(
      () =>
        void deliveries.renew(runId).catch((error: unknown) => log.warn({ err: error }, "Lease not renewed")),
      Math.max(250, deliveries.leaseMs / 3),
    );
    try {
      return await work();
    } finally {
      clearInterval(renewal);
    }
  }

  /** Records how a turn ended and tells each destination; a change asked for waits for its approver. */
  private async conclude(
    task: TaskDefinition,
    runId: string,
    where: { title: string; thread: DeliveryRecord["thread"]; places: Destination[] },
    ended: Ended,
    log: Logger,
  ): Promise<RunEnd> {
    const { title, thread, places } = where;
    const { deliveries, destinations } = this.deps;
    log.info({ status: ended.status, spend: ended.spend }, "Triggered run turn ended");
    const outcome: Outcome = { taskId: task.id, runId, title, status: ended.status, text: ended.text };
    const askedAt = new Date();
    if (ended.asks) {
      outcome.text = ended.asks.question;
      outcome.expiresAt = new Date(askedAt.getTime() + this.deps.confirmationExpiryMs);
    }
    // A question is recorded before it is asked, so a press that comes the moment it shows finds the
    // wait (a replica that dies in between leaves an unasked wait, which expires and says so). An end
    // is told first, then recorded: a run shown ended has said so everywhere it goes (and a replica
    // that dies in between leaves it to the sweeper, which reports it lost).
    if (ended.asks && outcome.expiresAt)
      await deliveries.wait(runId, { ...ended.asks, askedAt, expiresAt: outcome.expiresAt }, ended.spend);
    for (const destination of places)
      await destinations
        .report(destination, outcome, thread)
        .catch((error: unknown) => log.warn({ err: error }, "An answer could not be delivered"));
    if (!ended.asks)
      await deliveries.finish(
        runId,
        ended.status,
        ended.status === "failed" ? ended.text.slice(0, 1_000) : undefined,
        ended.spend,
      );
    return ended.status;
  }

  /**
   * One turn with the task's agent, as the trigger's principal: how it ended and what it said. Past
   * its time budget the agent's task is canceled there (agent-turn.ts), and the run says so.
   */
  private async ask(
    task: TaskDefinition,
    runId: string,
    input: {
      text: string;
      taskId?: string;
      contextId?: string;
      decision?: "approve" | "decline";
      argsHashes?: string[];
      headers?: Record<string, string>;
      metadata?: Record<string, unknown>;
    },
  ): Promise<Ended> {
    // The run's time budget: the task's timeout_seconds, else DYNAMIC_AGENTS_TIMEOUT_SECONDS.
    const budgetMs = task.timeoutMs ?? this.deps.timeoutMs;
    // A timer of its own, cleared when the turn ends: AbortSignal.timeout would keep each run's timer
    // and signal alive for the whole budget after the run ended, which under load adds up.
    const timer = new AbortController();
    const deadline = timer.signal;
    const clock = setTimeout(
      () => timer.abort(new DOMException("The run's time budget ran out.", "TimeoutError")),
      budgetMs,
    );
    try {
      const agent = await this.connect(task.agentUrl ?? this.deps.supervisorUrl);
      const token = await this.deps.principals?.tokenFor(task);
      const result = await turnWithin(
        agent,
        {
          ...input,
          ...(token ? { token } : {}),
          headers: {
            ...input.headers,
            // One trace per run, whichever replica and whichever turn (the ask, then the decision):
            // the fetch instrumentation carries the run's span when this service exports spans.
            ...(this.deps.tracing ? {} : { traceparent: traceparentOf(runId) }),
            ...(task.budget ? { [BUDGET_HEADER]: formatBudget(task.budget) } : {}),
          },
        },
        deadline,
        this.deps.logger,
      );
      // Charged as a hop is (only whole numbers, at most the task's budget): the report is the agent's
      // word, whatever it holds, and it reaches the log and the run history.
      return {
        ...endedFrom(result),
        spend: chargedSpend(task.budget ?? {}, result.metadata?.[SPEND_METADATA_KEY]),
      };
    } catch (error) {
      if (deadline.aborted)
        return {
          status: "failed",
          text: `The run was ended: it took longer than its budget of ${budgetMs / 1000} s (${task.timeoutMs !== undefined ? "the task's timeout_seconds" : "DYNAMIC_AGENTS_TIMEOUT_SECONDS"}), ${CANCELED[error instanceof PastDeadline ? error.task : "not-taken"]}.`,
        };
      return { status: "failed", text: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(clock);
    }
  }
}

/** What became of a run's task at its agent when the run ran out of time (agent-turn.ts). */
const CANCELED = {
  canceled: "and its task was canceled at the agent",
  "not-taken": "before the agent took it, and nothing more was waited for",
  "not-canceled": "and its task could not be canceled at the agent (the receiver's log says why)",
} as const;

/** Whether a destination's target is filled from the payload (so it is kept with the run once filled). */
export function fromPayload(destination: Destination): boolean {
  return (
    destination.kind === "jira_comment" ||
    destination.kind === "github_comment" ||
    destination.kind === "pagerduty_note"
  );
}

function endedFrom(result: TurnResult): Ended {
  if (result.state === "completed") return { status: "success", text: result.text };
  if (result.state === "input-required") {
    const asked = result.question ?? result.text;
    const question = readQuestion(asked);
    if (question.confirmation && !question.refusedApproval)
      return {
        status: "input-required",
        text: asked,
        asks: {
          taskId: result.taskId,
          contextId: result.contextId,
          question: question.text,
          ...(result.argsHashes ? { argsHashes: result.argsHashes } : {}),
        },
      };
    if (question.refusedApproval) return { status: "input-required", text: asked };
    return {
      status: "failed",
      text: `The agent asked for an answer in words, which a triggered run has nobody to give: ${question.text}`,
    };
  }
  return { status: "failed", text: result.text || `The agent ended the run as ${result.state}.` };
}

/** How a turn of a run ended, as its span says. */
function statusOf(ended: RunEnd | Decided): string {
  if (typeof ended === "string") return ended;
  return "status" in ended ? ended.status : "refused";
}
