import type { Logger } from "@switchboard/common";
import { connectAgent } from "./client.js";
import type { AgentConnection } from "./types.js";

/**
 * The A2A connection to an agent a service relays to (the supervisor, for the Slack and Webex bots
 * and the MCP server), made on first use and kept; a failed attempt is tried again on the next
 * call, so an agent that was down is picked up once it is back.
 */
export class AgentLink {
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

  /** Whether the agent serves its card now (for /ready). */
  async reachable(): Promise<boolean> {
    const answer = await fetch(`${this.url.replace(/\/+$/, "")}/.well-known/agent-card.json`, {
      signal: AbortSignal.timeout(3_000),
    }).catch(() => undefined);
    return answer?.ok ?? false;
  }
}
