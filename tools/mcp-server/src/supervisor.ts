import { AgentLink, type SendInput, type TurnEvent } from "@switchboard/a2a-client";
import { type Logger, SwitchboardError } from "@switchboard/common";

/**
 * The supervisor as this server reaches it: A2A for turns (the connection made on first use and
 * kept; a failed attempt is tried again next time) and its caller routes for agents and
 * conversations. Every call carries the user's own token, so every decision there is the user's.
 */
export class Supervisor {
  private readonly link: AgentLink;

  constructor(
    readonly url: string,
    timeoutMs: number,
    logger: Logger,
  ) {
    this.link = new AgentLink(url, timeoutMs, logger);
  }

  /** One turn's events, as the user whose token it is. */
  async *turn(input: SendInput): AsyncGenerator<TurnEvent> {
    yield* (await this.link.connect()).stream(input);
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
  reachable(): Promise<boolean> {
    return this.link.reachable();
  }
}
