import {
  type AgentTool,
  connectMcpServer,
  type GuardedTools,
  type SharedMcpServer,
  type TurnContext,
  turnOf,
} from "@switchboard/agent-runtime";
import type { Logger } from "@switchboard/common";
import { RAG_SEARCH } from "@switchboard/contract";
import { TurnSources } from "./citations.js";
import { checkRagHealth } from "./health.js";
import { knowledgeBasePrompt } from "./prompt.js";
import type { RagSettings } from "./settings.js";

/** How long the MCP connection and tool listing get, once the health check passed. */
const CONNECT_TIMEOUT_MS = 10_000;

interface Connected {
  server: SharedMcpServer;
  tools: GuardedTools;
}

/**
 * A CAIPE RAG server's tools for the supervisor (ENABLE_RAG, RAG_SERVER_URL), as CAIPE's supervisor
 * takes them: its health check first (`/healthz`), then its MCP tools at `<RAG_SERVER_URL>/mcp`
 * through the runtime's MCP client. Every call carries the caller's own token (never a service
 * credential), so the server's access rules decide what the user reads; each call is decided by the
 * supervisor's policy and audited like any tool. A server that is down does not stop the supervisor:
 * it says so once, answers without the knowledge base, and checks again every
 * RAG_CONNECTIVITY_WAIT_SECONDS until the server is back (where CAIPE gave up after five tries).
 */
export class KnowledgeBase {
  private connected: Connected | undefined;
  private unavailable: string | undefined;
  /**
   * The server is up but lists its tools only to a signed-in user (CAIPE's MCP_AUTH_ENABLED, on by
   * default): they are listed with the next signed-in caller's own token, at most once a wait.
   */
  private listsToUsers: { next: number; listing?: Promise<void> } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly settings: RagSettings,
    private readonly deps: {
      env: NodeJS.ProcessEnv;
      logger: Logger;
      guardTools: (tools: AgentTool[]) => GuardedTools;
    },
  ) {}

  /** Checks the server now, and keeps checking while it is down. */
  start(): void {
    this.deps.logger.info(
      { ragServer: this.settings.url },
      "Knowledge base enabled: connecting to the RAG server",
    );
    void this.attempt();
  }

  /**
   * Before a model call: when the server lists its tools only to a signed-in user, lists them with
   * this caller's own token (the turn waits for it, at most the connection's timeout).
   */
  async prepare(turn: TurnContext | undefined): Promise<void> {
    const waiting = this.listsToUsers;
    if (this.connected || !waiting || !turn?.token || !turn.principal.authenticated) return;
    if (!waiting.listing && Date.now() < waiting.next) return;
    waiting.listing ??= this.connect({ principal: turn.principal, token: turn.token }).finally(() => {
      waiting.listing = undefined;
      waiting.next = Date.now() + this.settings.retryMs;
    });
    await waiting.listing;
  }

  /** The knowledge base's tools behind the supervisor's guard; undefined while its server is down. */
  tools(): GuardedTools | undefined {
    return this.connected?.tools;
  }

  /** The prompt's knowledge base section: its tools, or that it is unavailable. */
  prompt(): string {
    return knowledgeBasePrompt(this.connected?.server.toolNames);
  }

  async close(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    const server = this.connected?.server;
    this.connected = undefined;
    await server?.close();
  }

  private async attempt(): Promise<void> {
    const health = await checkRagHealth(this.settings.url, this.stopping.signal);
    if (this.stopping.signal.aborted) return;
    if (!health.up) return this.down(health.reason);
    await this.connect(undefined);
  }

  /** Connects and lists the tools: without a token at start, or as `listAs` for a server that asks for one. */
  private async connect(
    listAs: (Pick<TurnContext, "principal"> & { token: string }) | undefined,
  ): Promise<void> {
    const { url } = this.settings;
    let server: SharedMcpServer;
    try {
      server = await connectMcpServer(
        // The user's token on every call, whatever FORWARD_JWT_TO_MCP says: the server's own access
        // rules are what keep a user from documents they may not read.
        { name: "rag", config: { url: `${url}/mcp`, forwardUserToken: true } },
        {
          env: this.deps.env,
          logger: this.deps.logger,
          timeoutMs: CONNECT_TIMEOUT_MS,
          source: "RAG_SERVER_URL",
          ...(listAs ? { listAs } : {}),
        },
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (listAs) {
        this.deps.logger.warn(
          { ragServer: url, reason },
          "The RAG server's tools could not be listed with the user's token; a later turn tries again",
        );
        return;
      }
      // The runtime's words for a listing the server refused without a user's token (HTTP 401 or 403).
      if (/\bHTTP 40[13]\b/.test(reason)) return this.awaitUser();
      return this.down(reason);
    }
    if (this.stopping.signal.aborted) {
      await server.close();
      return;
    }
    // CAIPE's RAG tools only read (search, fetch_document, list_datasources_and_entity_types, its
    // read-only graph queries) and mark none read-only: none asks the user first. Each call is still
    // decided by the policy, as a read.
    const tools = citing(this.deps.guardTools(server.tools({ asks: () => false })));
    this.connected = { server, tools };
    this.unavailable = undefined;
    this.listsToUsers = undefined;
    this.deps.logger.info(
      { ragServer: url, tools: server.toolNames },
      "Knowledge base connected: the RAG server's tools are offered to the model",
    );
  }

  private awaitUser(): void {
    this.listsToUsers = { next: 0 };
    this.unavailable = undefined;
    this.deps.logger.info(
      { ragServer: this.settings.url },
      "The RAG server lists its tools only to a signed-in user: they are listed with the next signed-in caller's own token",
    );
  }

  /** Said once when the server goes down (or is down at start), then checked again after the wait. */
  private down(reason: string): void {
    const seconds = this.settings.retryMs / 1000;
    if (this.unavailable === undefined) {
      this.deps.logger.error(
        { ragServer: this.settings.url },
        `The knowledge base is unavailable: the RAG server at ${this.settings.url} (RAG_SERVER_URL) cannot be used (${reason}). ` +
          `The supervisor answers without it and checks again every ${seconds} s; check that the server runs and that RAG_SERVER_URL names it.`,
      );
    } else {
      this.deps.logger.debug({ ragServer: this.settings.url, reason }, "RAG server still unavailable");
    }
    this.unavailable = reason;
    this.timer = setTimeout(() => void this.attempt(), this.settings.retryMs);
    this.timer.unref();
  }
}

/**
 * The tools, with each turn's `search` results kept as the model read them, so the turn's answer
 * carries its sources (citations.ts): one TurnSources per turn, added to the answer at its first search.
 */
function citing(tools: GuardedTools): GuardedTools {
  const turns = new WeakMap<TurnContext, TurnSources>();
  return {
    ...tools,
    get tools() {
      return tools.tools;
    },
    call: async (toolCall, config) => {
      const result = await tools.call(toolCall, config);
      const turn = turnOf(config);
      // A refused or failed call is the guard's words, not results: it serves no source.
      if (toolCall.name === RAG_SEARCH && turn?.addToAnswer && result.status !== "error") {
        let sources = turns.get(turn);
        if (!sources) {
          const made = new TurnSources();
          turns.set(turn, made);
          turn.addToAnswer((answer) => made.forAnswer(answer));
          sources = made;
        }
        sources.record(result.content);
      }
      return result;
    },
  };
}
