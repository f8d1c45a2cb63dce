import { type AgentCard, Message, type SendMessageRequest } from "@a2a-js/sdk";
import type { Client, TransportFactory } from "@a2a-js/sdk/client";
import { getLogger } from "@switchboard/common";
import { fetchAgentCard, summarizeCard, withPinnedUrls } from "./card.js";
import { Deadline } from "./deadline.js";
import { describeCallError } from "./describe-error.js";
import { retryWhenDraining } from "./draining.js";
import { legacyContextId } from "./legacy-context.js";
import { legacyTraceId } from "./legacy-trace.js";
import { sendResultToTurnResult, taskToTurnResult, toTurnEvent, turnResultToEvents } from "./turn.js";
import type {
  AgentCardSummary,
  AgentConnection,
  CallOptions,
  ConnectOptions,
  SendInput,
  TurnEvent,
  TurnResult,
} from "./types.js";

export type { TurnState } from "./types.js";
export type {
  AgentCardSummary,
  AgentConnection,
  CallOptions,
  ConnectOptions,
  SendInput,
  TurnEvent,
  TurnResult,
};

const DEFAULT_TIMEOUT_MS = 300_000;
const DEFAULT_CARD_RETRIES = 5;

/**
 * Connects to an A2A agent: fetches its card (retrying while it starts) and picks a transport:
 * gRPC when the card prefers it (lists it first), else JSON-RPC first. v0.3 compatibility is on everywhere, so CAIPE's Python agents work too.
 */
export async function connectAgent(baseUrl: string, options: ConnectOptions = {}): Promise<AgentConnection> {
  // People paste the card URL itself; the agent's base URL is what it hangs off.
  baseUrl = baseUrl.replace(/\/?\.well-known\/agent-card\.json$/, "").replace(/\/+$/, "");
  // Called as a method of option objects below: a browser's fetch refuses any `this` but window.
  const fetchImpl: typeof fetch = options.fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const logger = options.logger ?? getLogger().child({ component: "a2a-client" });
  const rawCard = await fetchAgentCard({
    baseUrl,
    fetchImpl,
    headers: authHeaders(options.headers, options.cardToken ?? options.token),
    secrets: secretsOf(options.cardToken ?? options.token),
    timeoutMs,
    retries: options.cardRetries ?? DEFAULT_CARD_RETRIES,
    logger,
  });
  // Calls go to the base URL given here whatever the card says (the card is the agent's own word).
  const { card, elsewhere } = withPinnedUrls(rawCard, baseUrl);
  // Calls go to another replica when the one they reached is shutting down.
  const callFetch = retryWhenDraining(fetchImpl);
  // Loaded on first connect: an agent that only serves A2A (and reads message text from here) never
  // holds the SDK's client.
  const { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } = await import("@a2a-js/sdk/client");
  const transports: TransportFactory[] = [
    new JsonRpcTransportFactory({ legacyCompat: { enabled: true }, fetchImpl: callFetch }),
    new RestTransportFactory({ legacyCompat: { enabled: true }, fetchImpl: callFetch }),
  ];
  // gRPC when the card prefers it (its first interface), and loaded only then (browsers have no gRPC).
  const grpcPreferred = card.supportedInterfaces?.[0]?.protocolBinding?.toUpperCase() === "GRPC";
  if (grpcPreferred) transports.push((await import("./grpc-transport.js")).grpcTransport(baseUrl));
  const factory = new ClientFactory({
    preferredTransports: grpcPreferred ? ["GRPC", "JSONRPC", "HTTP+JSON"] : ["JSONRPC", "HTTP+JSON"],
    transports,
    // The card is fetched and normalized already (with retries and compat). createFromAgentCard
    // would normalize it again, and the SDK's proto-card heuristic re-parses translated v0.3 cards.
    cardResolver: { resolve: async () => card },
  });
  let client: Client;
  try {
    client = await factory.createFromUrl(baseUrl);
  } catch (error) {
    throw describeCallError(error, {
      agentUrl: baseUrl,
      operation: "transport selection (the card offers no JSON-RPC, HTTP+JSON or gRPC interface)",
      secrets: secretsOf(options.token),
      timeoutMs,
    });
  }
  const endpoint = chosenUrl(card, client);
  const summary = summarizeCard(card, endpoint, client.protocolVersion);
  if (elsewhere.length > 0) summary.ignoredUrls = elsewhere;
  return new Connection(client, summary, baseUrl, {
    headers: options.headers,
    token: options.token,
    timeoutMs,
  });
}

interface ConnectionSettings {
  headers: Record<string, string> | undefined;
  token: string | undefined;
  timeoutMs: number;
}

class Connection implements AgentConnection {
  constructor(
    private readonly client: Client,
    readonly card: AgentCardSummary,
    readonly baseUrl: string,
    private readonly settings: ConnectionSettings,
  ) {}

  async send(input: SendInput): Promise<TurnResult> {
    return this.call("send", input, async (signal, serviceParameters) =>
      sendResultToTurnResult(
        await this.client.sendMessage(buildRequest(input, this.card.protocolVersion), {
          signal,
          serviceParameters,
        }),
      ),
    );
  }

  async *stream(input: SendInput): AsyncGenerator<TurnEvent> {
    if (!this.card.streaming) {
      // The SDK would silently fall back to a blocking send and hand us one Task; spell it out as events.
      yield* turnResultToEvents(await this.send(input));
      return;
    }
    const deadline = new Deadline(this.settings.timeoutMs, input.signal);
    const site = this.site("stream", input.token);
    try {
      const events = this.client.sendMessageStream(buildRequest(input, this.card.protocolVersion), {
        signal: deadline.signal,
        serviceParameters: this.serviceParameters(input.token, input.headers),
      });
      for await (const response of events) {
        deadline.touch();
        const event = toTurnEvent(response);
        if (event) yield event;
      }
    } catch (error) {
      throw this.failure(error, deadline, site);
    } finally {
      deadline.close();
    }
  }

  getTask(taskId: string, options: CallOptions = {}): Promise<TurnResult> {
    return this.call("getTask", options, async (signal, serviceParameters) =>
      taskToTurnResult(
        await this.client.getTask(
          { tenant: "", id: taskId, historyLength: undefined },
          { signal, serviceParameters },
        ),
      ),
    );
  }

  cancel(taskId: string, options: CallOptions = {}): Promise<TurnResult> {
    return this.call("cancel", options, async (signal, serviceParameters) =>
      taskToTurnResult(
        await this.client.cancelTask(
          { tenant: "", id: taskId, metadata: undefined },
          { signal, serviceParameters },
        ),
      ),
    );
  }

  private async call<T>(
    operation: string,
    options: CallOptions & { headers?: Record<string, string> },
    run: (signal: AbortSignal, serviceParameters: Record<string, string>) => Promise<T>,
  ): Promise<T> {
    const deadline = new Deadline(this.settings.timeoutMs, options.signal);
    try {
      return await run(deadline.signal, this.serviceParameters(options.token, options.headers));
    } catch (error) {
      throw this.failure(error, deadline, this.site(operation, options.token));
    } finally {
      deadline.close();
    }
  }

  /** A caller's own abort is passed through untouched (standard AbortSignal behaviour); the rest is described. */
  private failure(error: unknown, deadline: Deadline, site: ReturnType<Connection["site"]>): unknown {
    if (deadline.callerAborted && !deadline.timedOut) return error;
    return describeCallError(error, { ...site, timedOut: deadline.timedOut });
  }

  private site(operation: string, callToken: string | undefined) {
    return {
      agentUrl: this.card.url || this.baseUrl,
      operation,
      secrets: secretsOf(this.settings.token, callToken),
      timeoutMs: this.settings.timeoutMs,
    };
  }

  private serviceParameters(
    callToken: string | undefined,
    callHeaders?: Record<string, string>,
  ): Record<string, string> {
    return authHeaders({ ...this.settings.headers, ...callHeaders }, callToken ?? this.settings.token);
  }
}

/** The caller's headers plus `Authorization: Bearer`, which replaces any Authorization header given. */
function authHeaders(
  headers: Record<string, string> | undefined,
  token: string | undefined,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (token && name.toLowerCase() === "authorization") continue;
    result[name] = value;
  }
  if (token) result.Authorization = `Bearer ${token}`;
  return result;
}

function secretsOf(...tokens: (string | undefined)[]): string[] {
  return tokens.filter((token): token is string => typeof token === "string" && token.length > 0);
}

/**
 * The v1 message. A new conversation gets a fresh contextId so that `contextId` and
 * `metadata.context_id` (read by CAIPE's Python agents) always agree; a follow-up on a task
 * without one lets the agent keep the task's own context. Ids come from the Web Crypto global, which
 * Node and browsers share: the web chat runs this client in the page. An A2A 0.3 agent (CAIPE's
 * refuse anything else) gets the conversation as a UUID ({@link legacyContextId}), and the active
 * trace as `metadata.trace_id` ({@link legacyTraceId}) unless the caller named one.
 */
export function buildRequest(input: SendInput, protocolVersion?: string): SendMessageRequest {
  const legacy = protocolVersion === "0.3";
  const given = input.contextId ?? (input.taskId ? undefined : crypto.randomUUID());
  const contextId = given !== undefined && legacy ? legacyContextId(given) : given;
  const metadata: Record<string, unknown> = { ...input.metadata };
  if (contextId !== undefined) metadata.context_id = contextId;
  if (legacy && metadata.trace_id === undefined) {
    const traceId = legacyTraceId();
    if (traceId !== undefined) metadata.trace_id = traceId;
  }
  const message = Message.fromJSON({
    messageId: crypto.randomUUID(),
    role: "ROLE_USER",
    contextId: contextId ?? "",
    taskId: input.taskId ?? "",
    parts: [
      ...(input.text !== "" || input.decision === undefined
        ? [{ text: input.text, mediaType: "text/plain" }]
        : []),
      ...(input.decision
        ? [
            {
              data: {
                decision: input.decision,
                ...(input.argsHashes ? { argsHashes: input.argsHashes } : {}),
              },
              mediaType: "application/json",
            },
          ]
        : []),
    ],
  });
  message.metadata = Object.keys(metadata).length > 0 ? metadata : undefined;
  return { tenant: "", message, configuration: undefined, metadata: undefined };
}

/** The URL of the interface the factory picked (same rule as the SDK: per binding, 1.0 wins). */
function chosenUrl(card: AgentCard, client: Client): string {
  const binding = client.transport.protocolName.toUpperCase();
  // Raw JSON cards pass through the resolver unvalidated: a field may be missing.
  const candidates = (card.supportedInterfaces ?? []).filter(
    (i) => i.protocolBinding?.toUpperCase() === binding,
  );
  const match = candidates.find((i) => i.protocolVersion === client.protocolVersion) ?? candidates[0];
  return match?.url ?? "";
}
