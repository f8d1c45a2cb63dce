import { type AgentConnection, connectAgent, type SendInput, type TurnEvent } from "@switchboard/a2a-client";
import { type Logger, SwitchboardError } from "@switchboard/common";

/**
 * The supervisor as this server reaches it: A2A for turns (the connection made on first use and
 * kept; a failed attempt is tried again next time) and its caller routes for agents and
 * conversations. Every call carries the user's own token, so every decision there is the user's.
 */
export class Supervisor {
  private connection: Promise<AgentConnection> | undefined;

  constructor(
    readonly url: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {}

  /** One turn's events, as the user whose token it is. */
  async *turn(input: SendInput): AsyncGenerator<TurnEvent> {
    yield* (await this.connect()).stream(input);
  }

  /** GET a caller route (`/subagents`, `/conversations/<id>`) as the user; the supervisor's own refusal is its message. */
  async get<T>(path: string, token: string | undefined): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(30_000),
    }).catch((error: unknown) => {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new SwitchboardError(
        "mcp-server.supervisor",
        "system",
        `Cannot reach the supervisor at ${this.url} (${code}): start it, or set CAIPE_URL on the MCP server.`,
      );
    });
    const body = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
    if (!response.ok) {
      const said = body?.error;
      const message =
        typeof said === "string"
          ? said
          : typeof (said as { message?: unknown } | undefined)?.message === "string"
            ? (said as { message: string }).message
            : `the supervisor answered ${response.status}`;
      throw new SwitchboardError("mcp-server.supervisor", response.status < 500 ? "user" : "system", message);
    }
    return body as T;
  }

  /** Whether the supervisor serves its card now (for /ready). */
  async reachable(): Promise<boolean> {
    const answer = await fetch(`${this.url}/.well-known/agent-card.json`, {
      signal: AbortSignal.timeout(3_000),
    }).catch(() => undefined);
    return answer?.ok ?? false;
  }

  private connect(): Promise<AgentConnection> {
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
}
