import type { AgentCard } from "@a2a-js/sdk";
import { type Logger, maskSecrets, sleep } from "@switchboard/common";
import { describeCallError, errorDetail } from "./describe-error.js";
import { A2ACallError } from "./errors.js";
import type { AgentCardSummary } from "./types.js";

export const CARD_PATH = "/.well-known/agent-card.json";
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 4_000;
const MAX_CARD_ATTEMPT_MS = 10_000;

export interface CardFetchOptions {
  baseUrl: string;
  fetchImpl: typeof fetch;
  /** Headers for the card request (auth included). */
  headers: Record<string, string>;
  secrets: readonly string[];
  timeoutMs: number;
  retries: number;
  logger: Logger;
}

/**
 * Fetches and normalizes the card (v0.3 cards are translated to v1), retrying while the agent may
 * still be starting: network errors, timeouts, 5xx, 408 and 429. Other 4xx answers fail at once.
 */
export async function fetchAgentCard(options: CardFetchOptions): Promise<AgentCard> {
  const cardUrl = new URL(CARD_PATH.slice(1), withTrailingSlash(options.baseUrl)).toString();
  const attemptMs = Math.min(options.timeoutMs, MAX_CARD_ATTEMPT_MS);
  let lastError: A2ACallError | undefined;
  let attempts = 0;
  const { DefaultAgentCardResolver } = await import("@a2a-js/sdk/client");
  for (let attempt = 0; attempt <= options.retries; attempt++) {
    attempts = attempt + 1;
    if (attempt > 0) await sleep(Math.min(FIRST_BACKOFF_MS * 2 ** (attempt - 1), MAX_BACKOFF_MS));
    const deadline = AbortSignal.timeout(attemptMs);
    const resolver = new DefaultAgentCardResolver({
      legacyCompat: { enabled: true },
      fetchImpl: (input, init) =>
        options.fetchImpl(input, {
          ...init,
          headers: { ...options.headers, ...init?.headers },
          signal: deadline,
        }),
    });
    try {
      return await resolver.resolve(withTrailingSlash(options.baseUrl), CARD_PATH.slice(1));
    } catch (error) {
      lastError = cardError(error, cardUrl, options, attemptMs, deadline.aborted);
      if (!isRetryable(lastError)) break;
      if (attempt < options.retries) {
        options.logger.info(
          { agentUrl: options.baseUrl, attempt: attempt + 1, reason: lastError.message },
          "A2A agent card not available yet; retrying",
        );
      }
    }
  }
  if (!lastError)
    throw new A2ACallError("a2a.card_unavailable", `No agent card from ${cardUrl}`, { agentUrl: cardUrl });
  if (attempts === 1) throw lastError;
  throw new A2ACallError(lastError.code, `${lastError.message} (gave up after ${attempts} attempts)`, {
    agentUrl: lastError.agentUrl,
    httpStatus: lastError.httpStatus,
    networkCode: lastError.networkCode,
    cause: lastError.cause,
  });
}

function cardError(
  error: unknown,
  cardUrl: string,
  options: CardFetchOptions,
  timeoutMs: number,
  timedOut: boolean,
): A2ACallError {
  const described = describeCallError(error, {
    agentUrl: options.baseUrl,
    operation: "agent card fetch",
    secrets: options.secrets,
    timeoutMs,
    timedOut,
  });
  if (described.code !== "a2a.http_error" && described.code !== "a2a.failed") return described;
  // A card that is missing or is not a card: the URL probably points at something else.
  const reason = described.httpStatus
    ? `HTTP ${described.httpStatus}`
    : maskSecrets(errorDetail(error), options.secrets);
  return new A2ACallError(
    "a2a.card_unavailable",
    `Could not load the agent card from ${cardUrl}: ${reason}. Check the agent URL (it must be the agent's base URL).`,
    { agentUrl: options.baseUrl, httpStatus: described.httpStatus, cause: error },
  );
}

function isRetryable(error: A2ACallError): boolean {
  if (error.code === "a2a.unreachable" || error.code === "a2a.timeout") return true;
  const status = error.httpStatus;
  return status !== undefined && (status >= 500 || status === 408 || status === 429);
}

const UNROUTABLE_HOSTS = new Set(["0.0.0.0", "[::]", "::"]);
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Where a call for an interface the card names goes: always to the agent's configured base URL
 * (where its card was read), never where the card says. A card is the agent's own word: an agent
 * that names another host (or a path outside its base) would have every call, with its token, sent
 * there. The card's path is kept when it lies under the base path (it says which path serves which
 * binding) or the card names the host by a bind-all address or localhost; else the base URL itself
 * is used. `elsewhere` says the card pointed somewhere else: not
 * said of a bind-all address (`0.0.0.0`) or of localhost, which agents advertise from a container
 * without meaning another host.
 */
export function pinnedUrl(advertised: string, baseUrl: string): { url: string; elsewhere: boolean } {
  const base = new URL(withTrailingSlash(baseUrl));
  const home = { url: base.toString().replace(/\/$/, ""), elsewhere: true };
  let url: URL;
  try {
    url = new URL(advertised, base);
  } catch {
    return home;
  }
  const sameOrigin = url.origin === base.origin;
  const localWord =
    UNROUTABLE_HOSTS.has(url.hostname) ||
    (LOOPBACK_HOSTS.has(url.hostname) && (!LOOPBACK_HOSTS.has(base.hostname) || url.port === base.port));
  // A bind-all or localhost address means the configured host itself: its path is kept. A path
  // outside the base on a named host is another service's (another agent behind one gateway).
  if (!localWord && !url.pathname.startsWith(base.pathname) && `${url.pathname}/` !== base.pathname) {
    return home;
  }
  const pinned = new URL(`${url.pathname}${url.search}`, base.origin);
  return { url: pinned.toString(), elsewhere: !sameOrigin && !localWord };
}

/**
 * The card with every interface URL pinned to the base URL ({@link pinnedUrl}), and the URLs it named
 * elsewhere (which the caller may warn about: they were not followed).
 */
export function withPinnedUrls(card: AgentCard, baseUrl: string): { card: AgentCard; elsewhere: string[] } {
  const elsewhere: string[] = [];
  const supportedInterfaces = (card.supportedInterfaces ?? []).flatMap((i) => {
    if (i.protocolBinding?.toUpperCase() === "GRPC") {
      const pinned = pinnedGrpcAddress(i.url ?? "", baseUrl);
      if (pinned.elsewhere) elsewhere.push(i.url ?? "");
      return pinned.address ? [{ ...i, url: pinned.address }] : [];
    }
    const pinned = pinnedUrl(i.url ?? "", baseUrl);
    if (pinned.elsewhere) elsewhere.push(i.url ?? "");
    return [{ ...i, url: pinned.url }];
  });
  return { card: { ...card, supportedInterfaces }, elsewhere: [...new Set(elsewhere)] };
}

/**
 * Where gRPC calls for a card's gRPC interface go (its `host:port`; gRPC has a port of its own): the
 * configured base URL's host on the card's port, as {@link pinnedUrl} keeps HTTP calls on the base
 * URL. A card naming another host is not followed (`address` undefined: the client uses an HTTP
 * binding), and said in `elsewhere`; a bind-all or loopback host means the configured host itself.
 */
export function pinnedGrpcAddress(
  advertised: string,
  baseUrl: string,
): { address: string | undefined; elsewhere: boolean } {
  const base = new URL(withTrailingSlash(baseUrl));
  let url: URL;
  try {
    // host:port, or a URL (some stacks write grpc://host:port or https://host:port).
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(advertised) ? advertised : `grpc://${advertised}`);
  } catch {
    return { address: undefined, elsewhere: true };
  }
  if (!url.port) return { address: undefined, elsewhere: false };
  const local = UNROUTABLE_HOSTS.has(url.hostname) || LOOPBACK_HOSTS.has(url.hostname);
  if (!local && url.hostname !== base.hostname) return { address: undefined, elsewhere: true };
  return { address: `${base.hostname}:${url.port}`, elsewhere: false };
}

/**
 * A plain summary. The resolver passes a v1 card through as parsed JSON, so optional-looking
 * fields may really be absent: read each one defensively.
 */
export function summarizeCard(card: AgentCard, url: string, protocolVersion: string): AgentCardSummary {
  return {
    name: card.name ?? "",
    description: card.description ?? "",
    skills: (card.skills ?? []).map((skill) => ({
      id: skill.id ?? "",
      name: skill.name ?? "",
      description: skill.description ?? "",
      examples: [...(skill.examples ?? [])],
      tags: [...(skill.tags ?? [])],
    })),
    url,
    protocolVersion,
    streaming: card.capabilities?.streaming === true,
  };
}

function withTrailingSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}
