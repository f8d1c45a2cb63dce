import { setTimeout as sleep } from "node:timers/promises";
import {
  type AgentCardSummary,
  type AgentConnection,
  type AgentSkillSummary,
  connectAgent,
} from "@switchboard/a2a-client";
import type { User } from "@switchboard/agent-runtime";
import type { Logger } from "@switchboard/common";
import { sameAgentName } from "@switchboard/contract";
import type { HopCredentials } from "./hop-credentials.js";
import type { SubagentConfig } from "./subagent-config.js";

/** How long the supervisor waits for a subagent to confirm a cancel. */
const CANCEL_TIMEOUT_MS = 5_000;

export type SubagentStatus = "connecting" | "available" | "refused" | "unreachable";

/** A subagent as its supervisor sees it now: whether calls reach it, and what it can do. */
export interface SubagentReport {
  name: string;
  /** `available` when calls reach it; else why not in `reason`. */
  status: SubagentStatus;
  /** From its card, once it was read. */
  description?: string;
  skills: AgentSkillSummary[];
  reason?: string;
}

export interface Subagent {
  config: SubagentConfig;
  status: SubagentStatus;
  /** Set while available. */
  connection?: AgentConnection;
  card?: AgentCardSummary;
  /** Why it is not available. */
  reason?: string;
  /** URLs its card named elsewhere than its configured URL (never followed; warned about once). */
  ignoredUrls?: string[];
}

export interface RosterOptions {
  connect?: typeof connectAgent;
  /** What each call to a subagent carries for its caller (hop-credentials.ts); default: nothing. */
  credentials?: HopCredentials;
  /** First retry delay; doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /** How often an available agent's card is fetched again to notice it went away. */
  checkMs?: number;
}

/**
 * The subagents a delegating agent (the supervisor, a configured agent with subagents) can route to.
 * Each is connected in the background: agents that are down at start-up join when they come up, and
 * one that goes away is reported and retried, never fatal to the agent that routes to it.
 */
export class Roster {
  private agents = new Map<string, Subagent>();
  private readonly stopped = new AbortController();
  private started = false;
  /** Each watched agent's loop: `stop` ends it (the agent left), `wake` cuts its pause short. */
  private readonly watches = new Map<Subagent, { stop: AbortController; wake?: () => void }>();

  constructor(
    configs: SubagentConfig[],
    private readonly logger: Logger,
    private readonly options: RosterOptions = {},
  ) {
    for (const config of configs) this.agents.set(config.name, { config, status: "connecting" });
  }

  start(): void {
    this.started = true;
    for (const agent of this.agents.values()) this.watch(agent);
  }

  stop(): void {
    this.stopped.abort();
  }

  /**
   * Replaces the set of subagents, in the order given: a new one joins (connected in the background,
   * as at start), one left out stops being watched and leaves `list()`, the prompt and
   * GET /subagents, an unchanged one is untouched (its connection kept). One whose URL or expected
   * card name changed is connected anew; other changes (its vendor, whether it takes the user's own
   * token) apply from its next call. A hop already under way with one that left finishes.
   */
  set(configs: SubagentConfig[]): void {
    const next = new Map<string, Subagent>();
    for (const config of configs) {
      if (next.has(config.name)) continue;
      const known = this.agents.get(config.name);
      if (known && sameEndpoint(known.config, config)) {
        known.config = config;
        next.set(config.name, known);
        continue;
      }
      const agent: Subagent = { config, status: "connecting" };
      next.set(config.name, agent);
      if (this.started) this.watch(agent);
    }
    for (const [name, agent] of this.agents) {
      const now = next.get(name);
      if (now === agent) continue;
      this.watches.get(agent)?.stop.abort();
      this.watches.delete(agent);
      if (now)
        this.logger.info({ subagent: name, url: now.config.url }, `subagent ${name} moved; reconnecting`);
      else this.logger.info({ subagent: name, url: agent.config.url }, `subagent ${name} left`);
    }
    this.agents = next;
  }

  list(): Subagent[] {
    return [...this.agents.values()];
  }

  /** Each subagent's state and, once its card was read, what it can do (GET /subagents). */
  report(): SubagentReport[] {
    return this.list().map(({ config, status, card, reason }) => ({
      name: config.name,
      status,
      ...(card ? { description: card.description } : {}),
      skills: card?.skills ?? [],
      ...(reason ? { reason } : {}),
    }));
  }

  get(name: string): Subagent | undefined {
    return this.list().find((agent) => sameAgentName(agent.config.name, name));
  }

  /**
   * The bearer token a call to the agent carries for `user`: one meant for that agent alone (or, if
   * configured, the user's own), so what one agent receives is refused everywhere else. Made anew for
   * each call: a hop token lives two minutes.
   */
  bearerFor(agent: Subagent | SubagentConfig, user: User | undefined): Promise<string | undefined> {
    const config = "config" in agent ? agent.config : agent;
    return this.options.credentials?.bearerFor(config, user) ?? Promise.resolve(undefined);
  }

  /** Cancels one of the agent's tasks (the caller stopped the turn it was part of); a failure is logged. */
  async cancelTask(agent: Subagent, taskId: string, user: User | undefined): Promise<void> {
    const { config, connection } = agent;
    if (!connection) return;
    try {
      const token = await this.bearerFor(agent, user);
      const { state } = await connection.cancel(taskId, {
        ...(token ? { token } : {}),
        signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS),
      });
      this.logger.info({ subagent: config.name, taskId, state }, `canceled the ${config.name} agent's task`);
    } catch (error) {
      this.logger.warn(
        { subagent: config.name, taskId, err: error },
        `could not cancel the ${config.name} agent's task; it ends on its own`,
      );
    }
  }

  /** A call to the agent failed to reach it: take it out of rotation and reconnect in the background. */
  reportUnreachable(agent: Subagent, reason: string): void {
    if (agent.status !== "available") return;
    this.logger.warn(
      { subagent: agent.config.name, url: agent.config.url, reason },
      "subagent went away; reconnecting",
    );
    Object.assign(agent, { status: "unreachable", reason, connection: undefined });
    this.watches.get(agent)?.wake?.();
  }

  private watch(agent: Subagent): void {
    const watch = { stop: new AbortController() };
    this.watches.set(agent, watch);
    void this.keepConnected(agent, AbortSignal.any([this.stopped.signal, watch.stop.signal]));
  }

  /** Connects the agent, then checks it every `checkMs` (retrying with back-off while down) until `done`. */
  private async keepConnected(agent: Subagent, done: AbortSignal): Promise<void> {
    const { retryMs = 1_000, maxRetryMs = 30_000, checkMs = 30_000 } = this.options;
    let delay = retryMs;
    let failures = 0;
    while (!done.aborted) {
      const outcome = await this.check(agent, done);
      if (done.aborted) return;
      if (outcome === "available") {
        delay = retryMs;
        failures = 0;
      } else {
        failures += 1;
        // One line when it first fails, then every tenth attempt: visible, not noisy.
        if (failures === 1 || failures % 10 === 0) {
          this.logger.warn(
            { subagent: agent.config.name, url: agent.config.url, reason: agent.reason, attempt: failures },
            `subagent ${agent.config.name} is ${agent.status}; retrying in the background`,
          );
        }
      }
      await this.pause(agent, outcome === "available" ? checkMs : delay, done);
      if (outcome !== "available") delay = Math.min(delay * 2, maxRetryMs);
    }
  }

  private async check(agent: Subagent, done: AbortSignal): Promise<SubagentStatus | undefined> {
    const { config } = agent;
    const connect = this.options.connect ?? connectAgent;
    try {
      const cardToken = config.directory
        ? await this.options.credentials?.directoryBearer(config.directory)
        : undefined;
      const connection = await connect(config.url, {
        cardRetries: 0,
        logger: this.logger,
        ...(cardToken ? { cardToken } : {}),
      });
      // It left the roster while its card was read: nothing to say of it.
      if (done.aborted) return undefined;
      const expected = config.cardName ?? config.name;
      if (!sameAgentName(connection.card.name, expected)) {
        const reason = `its card is named "${connection.card.name}", but ${enabledBy(config)} expects "${expected}"`;
        if (agent.reason !== reason)
          this.logger.error(
            { subagent: config.name, url: config.url },
            `Refusing the agent at ${config.url}: ${reason}.`,
          );
        Object.assign(agent, { status: "refused", reason, connection: undefined, card: connection.card });
        return "refused";
      }
      const ignored = connection.card.ignoredUrls ?? [];
      if (
        ignored.length > 0 &&
        (agent.status !== "available" || agent.ignoredUrls?.join() !== ignored.join())
      ) {
        this.logger.warn(
          { subagent: config.name, url: config.url, cardUrls: ignored },
          `The ${config.name} agent's card points elsewhere than ${urlFrom(config)}; calls go to ${config.url} only.`,
        );
      }
      agent.ignoredUrls = ignored;
      if (agent.status !== "available") {
        this.logger.info(
          { subagent: config.name, url: config.url, skills: connection.card.skills.map((skill) => skill.id) },
          `subagent ${config.name} joined`,
        );
      }
      Object.assign(agent, { status: "available", reason: undefined, connection, card: connection.card });
      return "available";
    } catch (error) {
      if (done.aborted) return undefined;
      const reason = error instanceof Error ? error.message : String(error);
      if (agent.status === "available")
        this.logger.warn({ subagent: config.name, reason }, "subagent went away");
      // The agent's own card is kept (what it can do once back); a refused card was another agent's.
      const card = agent.status === "refused" ? undefined : agent.card;
      Object.assign(agent, { status: "unreachable", reason, connection: undefined, card });
      return "unreachable";
    }
  }

  private async pause(agent: Subagent, ms: number, done: AbortSignal): Promise<void> {
    const wake = new AbortController();
    const watch = this.watches.get(agent);
    if (watch) watch.wake = () => wake.abort();
    await sleep(ms, undefined, { signal: AbortSignal.any([done, wake.signal]), ref: false }).catch(
      () => undefined,
    );
  }
}

function enabledBy(config: SubagentConfig): string {
  return config.configuredBy?.enabled ?? `ENABLE_${config.prefix}`;
}

function urlFrom(config: SubagentConfig): string {
  return config.configuredBy?.url ?? `${config.prefix}_AGENT_URL`;
}

/** Whether two configurations of an agent reach the same endpoint and expect the same card. */
function sameEndpoint(a: SubagentConfig, b: SubagentConfig): boolean {
  return a.url === b.url && (a.cardName ?? a.name) === (b.cardName ?? b.name);
}
