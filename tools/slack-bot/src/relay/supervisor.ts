import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import type { Logger } from "@switchboard/common";

/**
 * The A2A connection to the supervisor, made on first use and kept; a failed attempt is tried again
 * on the next turn, so a supervisor that was down is picked up once it is back.
 */
export class SupervisorLink {
  private connection: Promise<AgentConnection> | undefined;

  constructor(
    readonly url: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {}

  connect(): Promise<AgentConnection> {
    this.connection ??= connectAgent(this.url, {
      timeoutMs: this.timeoutMs,
      cardRetries: 1,
      logger: this.logger,
    }).catch((error: unknown) => {
      this.connection = undefined;
      throw error;
    });
    return this.connection;
  }

  /** Whether the supervisor serves its card now (for /ready). */
  async reachable(): Promise<boolean> {
    const answer = await fetch(`${this.url.replace(/\/+$/, "")}/.well-known/agent-card.json`, {
      signal: AbortSignal.timeout(3_000),
    }).catch(() => undefined);
    return answer?.ok ?? false;
  }
}
