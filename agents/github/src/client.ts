import { VendorClient, type VendorFailure } from "@switchboard/agent-runtime";
import { getLogger, SwitchboardError } from "@switchboard/common";
import type { Octokit, RequestError } from "octokit";
import { type GithubSettings, readGithubSettings } from "./env.js";

export type GithubConnection = VendorClient<Octokit, GithubSettings>;

/** A request GitHub does not answer within this fails instead of holding the turn open. */
const REQUEST_TIMEOUT_MS = 20_000;
const MAX_RATE_LIMIT_WAIT_S = 5;

/**
 * Per-request option for calls that change GitHub: never retried, because a POST that timed out or
 * got a 502 may still have created the issue, and a retry would create it twice.
 */
export const NO_RETRY = { retries: 0 } as const;

/** What the address setting is, said wherever it may be wrong. */
const API_URL_HINT =
  "GITHUB_API_URL (https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server)";

/** Marks an answer that was a web page: GITHUB_API_URL points at the site, not its API. */
const WEB_PAGE = "a web page, not JSON";

/** GitHub through Octokit: what is particular to GitHub; the runtime does the rest. */
export function githubConnection(env: NodeJS.ProcessEnv): GithubConnection {
  return new VendorClient(
    {
      vendor: "GitHub",
      code: "github",
      settings: readGithubSettings,
      connect,
      names: ({ apiUrl, auth }) => ({
        url: apiUrl,
        credentials:
          auth.kind === "app"
            ? "GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY and GITHUB_APP_INSTALLATION_ID (the app's permissions)"
            : "GITHUB_PERSONAL_ACCESS_TOKEN",
        address: API_URL_HINT,
        permissionHint: "its scopes or fine-grained access, or SSO authorization for the organization",
      }),
      secrets: ({ auth }) => (auth.kind === "app" ? [auth.privateKey] : [auth.token]),
      // A user's own personal access token stands in for the service's on their calls (an App too).
      linkedToken: (token) => ({ GITHUB_PERSONAL_ACCESS_TOKEN: token, GITHUB_APP_ID: "" }),
      classify: githubFailure,
      describe: ({ status, detail }, { apiUrl }) =>
        detail === WEB_PAGE
          ? new SwitchboardError(
              "github.api-url",
              "user",
              `${apiUrl} answered HTTP ${status} with a web page, not the GitHub REST API: set GITHUB_API_URL to the API root ` +
                "(https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise Server).",
            )
          : undefined,
    },
    env,
  );
}

/**
 * `octokit`'s bundled plugins stay on, tuned for an interactive turn: the retry plugin retries a
 * read once after 1 s on a 5xx or network failure (its default is 3 retries, 1 + 4 + 9 s), and the
 * throttling plugin (which also spaces writes as GitHub asks) retries a rate-limited request only
 * when the limit lifts within a few seconds; by default it sleeps until the limit resets, up to an
 * hour. Octokit makes no request when constructed.
 */
async function connect({ apiUrl, auth }: GithubSettings): Promise<Octokit> {
  const { App, Octokit } = await import("octokit");
  const log = getLogger().child({ component: "octokit" });
  const options = {
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
  };
  if (auth.kind === "token") return new Octokit({ ...options, auth: auth.token });
  // A GitHub App: octokit signs the app's JWT, trades it for an installation token and renews that
  // token before it expires (an hour), so nobody rotates anything.
  const app = new App({ appId: auth.appId, privateKey: auth.privateKey, Octokit: Octokit.defaults(options) });
  return app.getInstallationOctokit(auth.installationId);
}

function fetchWithTimeout(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  return fetch(url, { ...init, signal: init?.signal ?? AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
}

function retryIfSoon(retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number): boolean {
  return retryCount === 0 && retryAfter <= MAX_RATE_LIMIT_WAIT_S;
}

interface GithubErrorBody {
  message?: string;
  errors?: Array<{ resource?: string; field?: string; code?: string; message?: string } | string>;
}

/** Octokit's RequestError: GitHub's message and field errors, the call, and its rate-limit headers. */
function githubFailure(error: unknown, { apiUrl }: GithubSettings): Partial<VendorFailure> | undefined {
  if (!(error instanceof Error) || !("request" in error)) return undefined;
  const { response, request, status } = error as RequestError;
  // Octokit reports "no answer" as HTTP 500; status 0 keeps that invented status out of the message.
  if (!response) return { status: 0, ...noAnswer(error) };
  if (typeof response.data === "string" && response.data.trim().startsWith("<")) {
    return { kind: "http", detail: WEB_PAGE };
  }
  const body: GithubErrorBody = typeof response.data === "object" && response.data ? response.data : {};
  const message = body.message?.split("\n")[0]?.trim();
  const fields = (body.errors ?? []).map((item) =>
    typeof item === "string"
      ? item
      : (item.message ?? [item.resource, item.field, item.code].filter(Boolean).join(" ")),
  );
  // "Not Found" says no more than the 404 itself; field errors (a 422's) follow GitHub's message.
  const detail = [message === "Not Found" ? undefined : message, fields.join("; ")].filter(Boolean);
  const headers = response.headers as Record<string, string | undefined>;
  const limited =
    (status === 403 || status === 429) &&
    (headers["x-ratelimit-remaining"] === "0" || /rate limit/i.test(message ?? ""));
  const reset = Number(headers["x-ratelimit-reset"]);
  return {
    operation: `${request.method} ${requestPath(request.url, apiUrl)}`,
    ...(detail.length ? { detail: detail.join(": ") } : {}),
    ...(limited ? { kind: "rate-limited" } : {}),
    // Retry-After (secondary limits) is read by the runtime; the primary limit says when it resets.
    ...(limited && !headers["retry-after"] && headers["x-ratelimit-remaining"] === "0" && reset > 0
      ? { retryAfterMs: Math.max(0, reset * 1000 - Date.now()) }
      : {}),
  };
}

/** No response at all: connection refused, unknown host, TLS failure, or no answer in time. */
function noAnswer(error: Error): Partial<VendorFailure> {
  const cause = error.cause as { name?: string; code?: string; cause?: { code?: string } } | undefined;
  if ([error.name, cause?.name].some((name) => name === "TimeoutError" || name === "AbortError")) {
    return { kind: "timeout", reason: `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` };
  }
  return { kind: "unreachable", reason: cause?.cause?.code ?? cause?.code ?? error.message };
}

/** The path below the API root, without the query: what a person needs to see which call failed. */
function requestPath(url: string, apiUrl: string): string {
  const path = url.startsWith(apiUrl) ? url.slice(apiUrl.length) : url;
  return path.split("?")[0] ?? path;
}
