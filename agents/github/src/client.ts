import { getLogger, SwitchboardError } from "@switchboard/common";
import type { Octokit, RequestError } from "octokit";
import { readGithubSettings } from "./env.js";

/** A request GitHub does not answer within this fails instead of holding the turn open. */
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * Per-request option for calls that change GitHub: never retried, because a POST that timed out or
 * got a 502 may still have created the issue, and a retry would create it twice.
 */
export const NO_RETRY = { retries: 0 } as const;

/**
 * The Octokit client, created on first use so the agent starts (and says what is missing) without
 * a token; every call's failure becomes a message the model or the user can act on.
 *
 * `octokit`'s bundled plugins stay on, tuned for an interactive turn: the retry plugin retries a
 * read once after 1 s on a 5xx or network failure (its default is 3 retries, 1 + 4 + 9 s), and the
 * throttling plugin (which also spaces writes as GitHub asks) retries a rate-limited request only
 * when the limit lifts within a few seconds; by default it sleeps until the limit resets, up to an
 * hour. Octokit makes no request when constructed.
 */
export class GithubConnection {
  private client: Octokit | undefined;
  private apiUrl = "";

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async call<T>(run: (client: Octokit) => Promise<T>): Promise<T> {
    this.client ??= await this.connect();
    try {
      return await run(this.client);
    } catch (error) {
      throw await describeGithubError(error, this.apiUrl);
    }
  }

  /** Octokit is loaded here, on first use: an agent that is never asked holds no copy of it. */
  private async connect(): Promise<Octokit> {
    const { apiUrl, token } = readGithubSettings(this.env);
    const { Octokit } = await import("octokit");
    this.apiUrl = apiUrl;
    const log = getLogger().child({ component: "octokit" });
    return new Octokit({
      auth: token,
      baseUrl: apiUrl,
      userAgent: "switchboard-agent-github",
      // Octokit logs to the console by default; services log JSON lines through pino.
      log: {
        debug: (message: string) => log.debug(message),
        info: (message: string) => log.info(message),
        warn: (message: string) => log.warn(message),
        error: (message: string) => log.error(message),
      },
      request: { fetch: fetchWithTimeout },
      retry: { retries: 1 },
      throttle: { onRateLimit: retryIfSoon, onSecondaryRateLimit: retryIfSoon },
    });
  }
}

function fetchWithTimeout(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  return fetch(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
}

const MAX_RATE_LIMIT_WAIT_S = 5;

function retryIfSoon(retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number): boolean {
  return retryCount === 0 && retryAfter <= MAX_RATE_LIMIT_WAIT_S;
}

interface GithubErrorBody {
  message?: string;
  errors?: Array<{ resource?: string; field?: string; code?: string; message?: string } | string>;
}

async function describeGithubError(error: unknown, apiUrl: string): Promise<Error> {
  if (error instanceof SwitchboardError) return error;
  const { RequestError } = await import("octokit");
  if (!(error instanceof RequestError)) return error instanceof Error ? error : new Error(String(error));
  const { response } = error;
  if (!response) return describeUnreachable(error, apiUrl);

  const status = error.status;
  const headers = response.headers as Record<string, string | undefined>;
  const body: GithubErrorBody = typeof response.data === "object" && response.data ? response.data : {};
  const message = body.message?.split("\n")[0]?.trim() || `HTTP ${status}`;
  if (typeof response.data === "string" && response.data.trim().startsWith("<")) {
    return new SwitchboardError(
      "github.api-url",
      "user",
      `${apiUrl} answered HTTP ${status} with a web page, not the GitHub REST API: set GITHUB_API_URL to the API root ` +
        "(https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server).",
    );
  }
  if ((status === 403 || status === 429) && isRateLimit(headers, message)) {
    const reset = Number(headers["x-ratelimit-reset"]);
    const when = reset > 0 ? ` until ${new Date(reset * 1000).toISOString().slice(11, 16)} UTC` : " for now";
    return new SwitchboardError(
      "github.rate-limited",
      "third-party",
      `GitHub's API rate limit for this token is used up${when} (${message}); try again then.`,
    );
  }
  if (status === 401) {
    return new SwitchboardError(
      "github.credentials",
      "user",
      `GitHub refused the token (HTTP 401 ${message}): check GITHUB_PERSONAL_ACCESS_TOKEN; it may be mistyped, expired or revoked.`,
    );
  }
  if (status === 403) {
    return new SwitchboardError(
      "github.credentials",
      "user",
      `GitHub refused the request (HTTP 403 ${message}): the token in GITHUB_PERSONAL_ACCESS_TOKEN lacks the permission ` +
        "(its scopes or fine-grained access, or SSO authorization for the organization).",
    );
  }
  const where = `${error.request.method} ${requestPath(error.request.url, apiUrl)}`;
  if (status === 404) {
    return new Error(
      `GitHub answered 404 Not Found for ${where}: it does not exist, or the token cannot see it (private repositories of others look missing).`,
    );
  }
  if (status === 422) {
    const details = (body.errors ?? []).map((item) =>
      typeof item === "string"
        ? item
        : (item.message ?? [item.resource, item.field, item.code].filter(Boolean).join(" ")),
    );
    return new Error(
      `GitHub rejected ${where} (HTTP 422 ${message})${details.length ? `: ${details.join("; ")}` : ""}`,
    );
  }
  return new Error(`GitHub answered HTTP ${status} for ${where}: ${message}`);
}

function isRateLimit(headers: Record<string, string | undefined>, message: string): boolean {
  return headers["x-ratelimit-remaining"] === "0" || /rate limit/i.test(message);
}

/** No response at all: connection refused, unknown host, TLS failure or timeout. */
function describeUnreachable(error: RequestError, apiUrl: string): Error {
  const cause = error.cause as { name?: string; code?: string; cause?: { code?: string } } | undefined;
  const reason =
    cause?.name === "TimeoutError" || cause?.name === "AbortError"
      ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
      : (cause?.cause?.code ?? cause?.code ?? error.message);
  return new SwitchboardError(
    "github.unreachable",
    "third-party",
    `Cannot reach GitHub at ${apiUrl} (${reason}): check GITHUB_API_URL (https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server).`,
  );
}

/** The path below the API root, without the query: what a person needs to see which call failed. */
function requestPath(url: string, apiUrl: string): string {
  const path = url.startsWith(apiUrl) ? url.slice(apiUrl.length) : url;
  return path.split("?")[0] ?? path;
}
