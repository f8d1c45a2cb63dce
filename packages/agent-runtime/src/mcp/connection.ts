import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { type Logger, redactSecrets, SwitchboardError } from "@switchboard/common";
import type { McpServerSettings } from "./settings.js";

/** Lines of a stdio server's stderr kept to explain why it would not start. */
const STDERR_LINES = 5;

type CallToolArgs = Parameters<Client["callTool"]>;

/**
 * One MCP server as the agent's tools see it: the methods of an MCP SDK `Client` that
 * @langchain/mcp-adapters calls, on whichever connection is current. A server that went away (a
 * stdio process that exited, an HTTP server that restarted and forgot its sessions) is connected
 * again on the next call; a request the server never received is sent once more on the new
 * connection. Every error names the server, without its secrets.
 */
export class McpServerConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private stderr: string[] = [];
  private closed = false;

  constructor(
    readonly settings: McpServerSettings,
    private readonly options: { agent: string; logger: Logger; timeoutMs: number },
  ) {}

  get name(): string {
    return this.settings.name;
  }

  /** Connects for the first time; a failure is the start-up error, naming the server and what to check. */
  async start(): Promise<void> {
    try {
      await this.current();
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

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async request<T>(what: string, run: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.current().catch((error: unknown) => {
      throw this.failure(`cannot be reached to ${what}`, error, this.hint());
    });
    try {
      return await run(client);
    } catch (error) {
      if (!neverReceived(error)) throw this.callFailure(what, error);
      // The server lost this connection (restarted, or its process exited) before it took the request:
      // nothing ran, so the request goes once more over a new connection.
      this.options.logger.info(
        { mcpServer: this.name },
        `MCP server "${this.name}" lost its session; reconnecting`,
      );
      this.drop(client);
      const fresh = await this.current().catch((reconnectError: unknown) => {
        throw this.failure(`cannot be reached to ${what}`, reconnectError, this.hint());
      });
      try {
        return await run(fresh);
      } catch (retryError) {
        throw this.callFailure(what, retryError);
      }
    }
  }

  private current(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error("the agent is shutting down"));
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<Client> {
    const client = new Client({ name: `switchboard-${this.options.agent}`, version: "1.0.0" });
    const transport = this.transport();
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (!this.closed) {
        this.options.logger.warn(
          { mcpServer: this.name },
          `MCP server "${this.name}" closed the connection; it is connected again on the next call`,
        );
      }
    };
    client.onerror = (error) =>
      this.options.logger.debug(
        { mcpServer: this.name, error: this.redact(String(error)) },
        "MCP transport error",
      );
    try {
      await client.connect(transport, { timeout: this.options.timeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new Error("the agent is shutting down");
    }
    this.client = client;
    return client;
  }

  private drop(client: Client): void {
    if (this.client === client) this.client = undefined;
    void client.close().catch(() => undefined);
  }

  private transport(): Transport {
    const { config } = this.settings;
    if (config.transport === "http") {
      return new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: config.headers },
      });
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
      return this.redact(
        `MCP server "${this.name}" at ${config.url} refused the credentials (HTTP ${status}): check the headers of "${this.name}" ${where} and the variables they refer to.`,
      );
    }
    return this.redact(
      `MCP server "${this.name}" at ${config.url} cannot be reached (${describe(error)}): is it running, and is the url of "${this.name}" ${where} right?`,
    );
  }

  private hint(): string {
    return this.settings.config.transport === "http"
      ? `is it running at ${this.settings.config.url}?`
      : "it could not be started again";
  }

  private callFailure(what: string, error: unknown): Error {
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return this.failure(
        `closed the connection while asked to ${what}`,
        error,
        "it may or may not have done it; it is connected again on the next call",
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return this.failure(`did not answer in time when asked to ${what}`, error);
    }
    return this.failure(`failed to ${what}`, error);
  }

  private failure(what: string, error: unknown, advice?: string): Error {
    const reason = describe(error);
    return new Error(
      this.redact(`MCP server "${this.name}" ${what}: ${reason}${advice ? ` (${advice})` : ""}`),
    );
  }

  private redact(text: string): string {
    return redactSecrets(text, this.settings.secrets);
  }
}

/** Whether a request certainly never reached a server that can take it (so sending it again is safe). */
function neverReceived(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  if (code === "ECONNREFUSED") return true;
  return error instanceof Error && error.message === "Not connected";
}

function httpStatus(error: unknown): number | undefined {
  if (error instanceof StreamableHTTPError) return error.code;
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
