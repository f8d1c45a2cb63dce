import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { type Logger, redactSecrets, SwitchboardError } from "@switchboard/common";
import { LRUCache } from "lru-cache";
import type { ToolCallContext } from "../context/tool-call-context.js";
import type { McpServerSettings } from "./settings.js";

/** Lines of a stdio server's stderr kept to explain why it would not start. */
const STDERR_LINES = 5;

type CallToolArgs = Parameters<Client["callTool"]>;

/** Who a call is made for: the tool call's verified principal and identity-provider token. */
export type McpCaller = Pick<ToolCallContext, "principal" | "token">;

/** The methods of an MCP SDK `Client` that @langchain/mcp-adapters calls. */
export type McpClientMethods = Pick<McpServerConnection, "listTools" | "readResource" | "callTool">;

/** How long a user's own connection (a server that forwards the user's token) stays open unused. */
const USER_IDLE_MS = 5 * 60_000;
/** How many users' connections to one server are kept open at most (the least recently used closes). */
const MAX_USER_CONNECTIONS = 100;

/** One connection to the server: the shared one, or a user's own (which carries that user's token). */
interface Session {
  client?: Client;
  connecting?: Promise<Client>;
  /** A user's own connection: the user's latest token, sent as the bearer on every request. */
  user?: { token: string };
  /** Requests under way: a session retired from the cache closes when the last one ends. */
  busy: number;
  retired: boolean;
  closed: boolean;
}

function newSession(user?: { token: string }): Session {
  return { busy: 0, retired: false, closed: false, ...(user ? { user } : {}) };
}

/**
 * One MCP server as the agent's tools see it: the methods of an MCP SDK `Client` that
 * @langchain/mcp-adapters calls, on whichever connection is current. A server that went away (a
 * stdio process that exited, an HTTP server that restarted and forgot its sessions) is connected
 * again on the next call; a request the server never received is sent once more on the new
 * connection. Every error names the server, without its secrets.
 *
 * A server that forwards the user's token (`forwardUserToken`, FORWARD_JWT_TO_MCP) gets, for a call
 * made for a caller with a verified token (`forCaller`, from the tool call's context), a connection of that user's own (keyed by the token's
 * subject, never shared), whose every request carries the user's latest token as
 * `Authorization: Bearer …` in place of the static one; it closes after USER_IDLE_MS unused. Listing
 * tools at start-up, and calls with no user token (AUTH_MODE=none), use the shared connection and the
 * server's static headers. A token is only ever held in memory.
 */
export class McpServerConnection {
  private readonly shared = newSession();
  private readonly users: LRUCache<string, Session> | undefined;
  private stderr: string[] = [];
  private closed = false;

  constructor(
    readonly settings: McpServerSettings,
    private readonly options: {
      /** Who the client introduces itself as (`switchboard-<agent>`): the agent, or "shared" for a host's. */
      agent: string;
      logger: Logger;
      timeoutMs: number;
      /** Default USER_IDLE_MS. */
      userIdleMs?: number;
    },
  ) {
    if (settings.forwardUserToken && settings.config.transport !== "stdio") {
      this.users = new LRUCache<string, Session>({
        max: MAX_USER_CONNECTIONS,
        ttl: options.userIdleMs ?? USER_IDLE_MS,
        updateAgeOnGet: true,
        ttlAutopurge: true,
        dispose: (session) => this.retire(session),
      });
    }
  }

  get name(): string {
    return this.settings.name;
  }

  /** Users with a connection of their own open now (a server that forwards the user's token). */
  get userConnections(): number {
    return this.users?.size ?? 0;
  }

  /** Connects for the first time; a failure is the start-up error, naming the server and what to check. */
  async start(): Promise<void> {
    try {
      await this.current(this.shared);
    } catch (error) {
      throw new SwitchboardError("runtime.mcp-unavailable", "user", this.startFailure(error));
    }
  }

  listTools: Client["listTools"] = (...args) =>
    this.request("list its tools", (client) => client.listTools(...args));

  readResource: Client["readResource"] = (...args) =>
    this.request("read a resource", (client) => client.readResource(...args));

  callTool = (params: CallToolArgs[0], resultSchema?: CallToolArgs[1], options?: RequestOptions) =>
    this.request(`run ${params.name}`, (client) => client.callTool(params, resultSchema, options));

  /**
   * The same methods, on `caller`'s own connection when this server receives the user's token
   * (undefined: the shared connection, as for listing tools at start-up).
   */
  forCaller(caller: McpCaller | undefined): McpClientMethods {
    return {
      listTools: (...args) => this.request("list its tools", (client) => client.listTools(...args), caller),
      readResource: (...args) =>
        this.request("read a resource", (client) => client.readResource(...args), caller),
      callTool: (params, resultSchema, options) =>
        this.request(
          `run ${params.name}`,
          (client) => client.callTool(params, resultSchema, options),
          caller,
        ),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const sessions = [this.shared, ...(this.users?.values() ?? [])];
    this.users?.clear();
    await Promise.all(sessions.map((session) => this.closeSession(session)));
  }

  /** The connection for the caller: their own when the server forwards the user's token and they sent one. */
  private sessionForCaller(caller: McpCaller | undefined): Session {
    if (!this.users) return this.shared;
    if (!caller?.principal.authenticated) return this.shared;
    const token = caller.token;
    // A signed-in caller without their identity-provider token came through the supervisor, which
    // hands that token to no agent unless told to: never fall back to the shared connection for them.
    if (!token) {
      throw new Error(
        `MCP server "${this.name}" receives the user's token (FORWARD_JWT_TO_MCP), and this call came through the supervisor, which passes the user's identity-provider token on only to agents named in its AUTH_FORWARD_USER_TOKEN_TO`,
      );
    }
    const subject = caller.principal.subject;
    if (!subject) {
      throw new Error(
        `MCP server "${this.name}" receives the user's token, and the caller's token names no subject (sub): sign in again`,
      );
    }
    let session = this.users.get(subject);
    if (!session || session.retired) {
      session = newSession({ token });
      this.users.set(subject, session);
    }
    // A refreshed token is used from the next request on, without connecting again.
    if (session.user) session.user.token = token;
    return session;
  }

  private async request<T>(
    what: string,
    run: (client: Client) => Promise<T>,
    caller?: McpCaller,
  ): Promise<T> {
    const session = this.sessionForCaller(caller);
    session.busy += 1;
    try {
      return await this.requestOn(session, what, run);
    } finally {
      session.busy -= 1;
      if (session.retired && session.busy === 0) void this.closeSession(session);
    }
  }

  private async requestOn<T>(
    session: Session,
    what: string,
    run: (client: Client) => Promise<T>,
  ): Promise<T> {
    const client = await this.current(session).catch((error: unknown) => {
      throw this.failure(`cannot be reached to ${what}`, error, this.hint(session, error), session);
    });
    try {
      return await run(client);
    } catch (error) {
      if (!neverReceived(error)) throw this.callFailure(what, error, session);
      // The server lost this connection (restarted, or its process exited) before it took the request:
      // nothing ran, so the request goes once more over a new connection.
      this.options.logger.info(
        { mcpServer: this.name },
        `MCP server "${this.name}" lost its session; reconnecting`,
      );
      this.drop(session, client);
      const fresh = await this.current(session).catch((reconnectError: unknown) => {
        throw this.failure(
          `cannot be reached to ${what}`,
          reconnectError,
          this.hint(session, reconnectError),
          session,
        );
      });
      try {
        return await run(fresh);
      } catch (retryError) {
        throw this.callFailure(what, retryError, session);
      }
    }
  }

  private current(session: Session): Promise<Client> {
    if (this.closed || session.closed) return Promise.reject(new Error("the agent is shutting down"));
    if (session.client) return Promise.resolve(session.client);
    session.connecting ??= this.connect(session).finally(() => {
      session.connecting = undefined;
    });
    return session.connecting;
  }

  private async connect(session: Session): Promise<Client> {
    const client = new Client({ name: `switchboard-${this.options.agent}`, version: "1.0.0" });
    const transport = this.transport(session);
    client.onclose = () => {
      if (session.client !== client) return;
      session.client = undefined;
      if (!this.closed && !session.closed) {
        this.options.logger.warn(
          { mcpServer: this.name },
          `MCP server "${this.name}" closed the connection; it is connected again on the next call`,
        );
      }
    };
    client.onerror = (error) =>
      this.options.logger.debug(
        { mcpServer: this.name, error: this.redact(String(error), session) },
        "MCP transport error",
      );
    try {
      await client.connect(transport, { timeout: this.options.timeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    if (this.closed || session.closed) {
      await client.close().catch(() => undefined);
      throw new Error("the agent is shutting down");
    }
    session.client = client;
    return client;
  }

  private drop(session: Session, client: Client): void {
    if (session.client === client) session.client = undefined;
    void client.close().catch(() => undefined);
  }

  /** A user's connection left the cache (idle, or too many users): it closes once no request uses it. */
  private retire(session: Session): void {
    session.retired = true;
    if (session.busy === 0) void this.closeSession(session);
  }

  private async closeSession(session: Session): Promise<void> {
    session.closed = true;
    const client = session.client ?? (await session.connecting?.catch(() => undefined));
    session.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private transport(session: Session): Transport {
    const { config } = this.settings;
    if (config.transport !== "stdio") {
      const user = session.user;
      const options = {
        requestInit: { headers: config.headers },
        // The user's latest token on every request of their connection, in place of a static one
        // (an SSE server's event stream and its posts alike).
        ...(user
          ? { fetch: (url: string | URL, init?: RequestInit) => fetch(url, withBearer(init, user.token)) }
          : {}),
      };
      return config.transport === "sse"
        ? new SSEClientTransport(new URL(config.url), options)
        : new StreamableHTTPClientTransport(new URL(config.url), options);
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // Beside its own "env", the SDK passes only HOME, PATH, SHELL, TERM, USER and LOGNAME: never the
      // agent's secrets (its LLM key, MongoDB URI).
      env: config.env,
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: "pipe",
    });
    this.stderr = [];
    // The server's own log lines: kept at debug level, and the last few to explain a failed start.
    const lines = createInterface({ input: transport.stderr as Readable });
    lines.on("line", (raw) => {
      const line = this.redact(raw);
      this.stderr = [...this.stderr, line].slice(-STDERR_LINES);
      this.options.logger.debug({ mcpServer: this.name }, line);
    });
    return transport;
  }

  private startFailure(error: unknown): string {
    const { config, source } = this.settings;
    const where = `in ${source}`;
    if (config.transport === "stdio") {
      const program = `${config.command}${config.args.length > 0 ? ` ${config.args.join(" ")}` : ""}`;
      const code = (error as { code?: unknown }).code;
      if (code === "ENOENT") {
        return this.redact(
          `MCP server "${this.name}" cannot be started: the command "${config.command}" was not found. Install it, or fix "command" (and "cwd") of "${this.name}" ${where}.`,
        );
      }
      const said = this.stderr.length > 0 ? ` Its last output: ${this.stderr.join(" | ")}` : "";
      return this.redact(
        `MCP server "${this.name}" cannot be started: \`${program}\` ${describe(error)}.${said} Check "${this.name}" ${where}.`,
      );
    }
    const status = httpStatus(error);
    if (status === 401 || status === 403) {
      const forwarding = this.settings.forwardUserToken
        ? ` It receives the user's token on calls, but lists its tools at start-up without one: let it list its tools unauthenticated, or give "${this.name}" a static header for that.`
        : "";
      return this.redact(
        `MCP server "${this.name}" at ${config.url} refused the credentials (HTTP ${status}): check the headers of "${this.name}" ${where} and the variables they refer to.${forwarding}`,
      );
    }
    return this.redact(
      `MCP server "${this.name}" at ${config.url} cannot be reached (${describe(error)}): is it running, and is the url of "${this.name}" ${where} right?`,
    );
  }

  private hint(session: Session, error: unknown): string {
    const status = httpStatus(error);
    if (session.user && (status === 401 || status === 403)) {
      return `it refused the user's token (HTTP ${status}): the user may need to sign in again, or lacks access to it`;
    }
    return this.settings.config.transport !== "stdio"
      ? `is it running at ${this.settings.config.url}?`
      : "it could not be started again";
  }

  private callFailure(what: string, error: unknown, session: Session): Error {
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return this.failure(
        `closed the connection while asked to ${what}`,
        error,
        "it may or may not have done it; it is connected again on the next call",
        session,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return this.failure(`did not answer in time when asked to ${what}`, error, undefined, session);
    }
    return this.failure(`failed to ${what}`, error, undefined, session);
  }

  private failure(what: string, error: unknown, advice?: string, session?: Session): Error {
    const reason = describe(error);
    return new Error(
      this.redact(`MCP server "${this.name}" ${what}: ${reason}${advice ? ` (${advice})` : ""}`, session),
    );
  }

  /** Text without the server's secrets, nor the token of the user whose connection it is about. */
  private redact(text: string, session?: Session): string {
    const user = session?.user?.token;
    return redactSecrets(text, user ? [...this.settings.secrets, user] : this.settings.secrets);
  }
}

/** Request options with `Authorization: Bearer <token>` in place of any Authorization header they had. */
function withBearer(init: RequestInit | undefined, token: string): RequestInit {
  const headers = new Headers(init?.headers);
  headers.set("authorization", `Bearer ${token}`);
  return { ...init, headers };
}

/** How the SDK's SSE client reports a message post its server refused before reading it. */
const SSE_SESSION_LOST = /^Error POSTing to endpoint \(HTTP (400|404)\)/;

/** Whether a request certainly never reached a server that can take it (so sending it again is safe). */
function neverReceived(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  // An SSE server hands a posted message to its session only with 202: a session it no longer knows
  // (restarted; Python's MCP servers answer 404, the TypeScript SDK's examples 400) took nothing.
  if (error instanceof Error && SSE_SESSION_LOST.test(error.message)) return true;
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  if (code === "ECONNREFUSED") return true;
  return error instanceof Error && error.message === "Not connected";
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError || error instanceof SseError) return error.code;
  const match = /\bHTTP (\d{3})\b/.exec(error instanceof Error ? error.message : "");
  return match ? Number(match[1]) : undefined;
}

function describe(error: unknown): string {
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    return "it exited or closed the connection";
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return "it did not answer in time";
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
