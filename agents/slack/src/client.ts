import type { WebClient } from "@slack/web-api";
import { SwitchboardError } from "@switchboard/common";
import { readSlackSettings } from "./env.js";

/** Slack's error codes that mean the token is wrong or lacks a scope: the user must fix settings. */
const CREDENTIAL_ERRORS = new Set([
  "not_authed",
  "invalid_auth",
  "account_inactive",
  "token_revoked",
  "token_expired",
]);

/**
 * The @slack/web-api client, created on first use so the agent starts (and says what is missing)
 * without a token; every call's failure becomes a message the model or the user can act on.
 */
export class SlackConnection {
  private client: WebClient | undefined;
  private apiUrl = "";

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async call<T>(run: (client: WebClient) => Promise<T>): Promise<T> {
    this.client ??= await this.connect();
    try {
      return await run(this.client);
    } catch (error) {
      throw describeSlackError(error, this.apiUrl);
    }
  }

  /** The Slack SDK is loaded here, on first use: an agent that is never asked holds no copy of it. */
  private async connect(): Promise<WebClient> {
    const { token, apiUrl } = readSlackSettings(this.env);
    const { WebClient } = await import("@slack/web-api");
    this.apiUrl = apiUrl;
    // Two retries: the SDK's default of ten, with backoff, would hold a chat turn for minutes.
    return new WebClient(token, { slackApiUrl: apiUrl, retryConfig: { retries: 2 }, timeout: 30_000 });
  }
}

function describeSlackError(error: unknown, apiUrl: string): Error {
  if (error instanceof SwitchboardError) return error;
  const { code, data } = error as { code?: string; data?: { error?: string; needed?: string } };
  const slackError = data?.error;
  if (slackError && CREDENTIAL_ERRORS.has(slackError)) {
    return new SwitchboardError(
      "slack.credentials",
      "user",
      `Slack refused the token (${slackError}): check SLACK_BOT_TOKEN.`,
    );
  }
  if (slackError === "missing_scope") {
    return new Error(
      `Slack says the bot token lacks a scope${data?.needed ? ` (needs ${data.needed})` : ""}.`,
    );
  }
  if (slackError === "not_in_channel") {
    return new Error("The Slack bot is not a member of that channel: invite it with /invite @<bot> first.");
  }
  if (slackError) return new Error(`Slack answered: ${slackError}`);
  if (code === "slack_webapi_request_error") {
    return new SwitchboardError(
      "slack.unreachable",
      "third-party",
      `Cannot reach Slack at ${apiUrl}: check SLACK_API_URL and the network.`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
