import type { WebClient } from "@slack/web-api";
import { VendorClient, type VendorFailure } from "@switchboard/agent-runtime";
import { SwitchboardError } from "@switchboard/common";
import { readSlackSettings, type SlackSettings } from "./env.js";

export type SlackConnection = VendorClient<WebClient, SlackSettings>;

/** Slack's Web API through @slack/web-api: what is particular to Slack; the runtime does the rest. */
export function slackConnection(env: NodeJS.ProcessEnv): SlackConnection {
  return new VendorClient(
    {
      vendor: "Slack",
      code: "slack",
      settings: readSlackSettings,
      connect: async ({ token, apiUrl }) => {
        // A CommonJS package: its exports are the lazy import's default, bundled or not.
        const { WebClient } = (await import("@slack/web-api")).default;
        // Two retries: the SDK's default of ten, with backoff, would hold a chat turn for minutes.
        return new WebClient(token, { slackApiUrl: apiUrl, retryConfig: { retries: 2 }, timeout: 30_000 });
      },
      names: ({ apiUrl }) => ({ url: apiUrl, credentials: "SLACK_BOT_TOKEN", address: "SLACK_API_URL" }),
      secrets: ({ token }) => [token],
      classify: slackFailure,
      describe: refusedToken,
    },
    env,
  );
}

/** Slack's error codes that mean the token is wrong or no longer valid: the user must fix settings. */
const CREDENTIAL_ERRORS = new Set([
  "not_authed",
  "invalid_auth",
  "account_inactive",
  "token_revoked",
  "token_expired",
]);

interface SlackError {
  code?: string;
  /** Slack's `ok: false` answer (HTTP 200): its error code, and the scope a call needs. */
  data?: { error?: string; needed?: string };
  /** What the HTTP client threw when no answer came. */
  original?: { code?: string };
  retryAfter?: number;
}

/** @slack/web-api's errors: Slack's own error code (in a 200 answer), rate limits, no answer. */
function slackFailure(error: unknown): Partial<VendorFailure> | undefined {
  const { code, data, original, retryAfter } = error as SlackError;
  const slackError = data?.error;
  if (slackError && CREDENTIAL_ERRORS.has(slackError)) return { kind: "credentials", detail: slackError };
  if (slackError === "missing_scope") {
    return { kind: "forbidden", detail: data?.needed ? `needs ${data.needed}` : slackError };
  }
  if (slackError === "not_in_channel") {
    return { detail: "The Slack bot is not a member of that channel: invite it with /invite @<bot> first." };
  }
  if (slackError) return { detail: slackError };
  if (code === "slack_webapi_rate_limited_error") {
    // Slack's client gives Retry-After in seconds.
    return { kind: "rate-limited", ...(retryAfter !== undefined ? { retryAfterMs: retryAfter * 1000 } : {}) };
  }
  if (code === "slack_webapi_request_error") {
    // axios says ECONNABORTED (or ETIMEDOUT) when the 30 s timeout ends a call.
    const reason = original?.code;
    const timedOut = reason === "ECONNABORTED" || reason === "ETIMEDOUT";
    return { kind: timedOut ? "timeout" : "unreachable", ...(reason ? { reason } : {}) };
  }
  return undefined;
}

/**
 * Slack refuses a token or a scope in an HTTP 200 answer (`ok: false`): the generic wording would
 * name an HTTP 401 or 403 that never came, so these two are said in Slack's terms.
 */
function refusedToken(failure: VendorFailure): SwitchboardError | undefined {
  if (failure.status !== undefined) return undefined;
  if (failure.kind === "credentials") {
    return new SwitchboardError(
      "slack.credentials",
      "user",
      `Slack refused the token (${failure.detail}): check SLACK_BOT_TOKEN; it may be mistyped, expired or revoked.`,
    );
  }
  if (failure.kind === "forbidden") {
    const needs = failure.detail?.startsWith("needs ") ? ` (${failure.detail})` : "";
    return new SwitchboardError(
      "slack.credentials",
      "user",
      `Slack says the bot token in SLACK_BOT_TOKEN lacks a scope${needs}: add it to the Slack app and reinstall it.`,
    );
  }
  return undefined;
}
