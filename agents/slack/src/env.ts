import { SwitchboardError } from "@switchboard/common";

export interface SlackSettings {
  token: string;
  /** The Web API base ending in `/`: @slack/web-api's `slackApiUrl`. */
  apiUrl: string;
}

export const DEFAULT_SLACK_API_URL = "https://slack.com/api/";

/** Slack settings: SLACK_BOT_TOKEN (CAIPE's name) and SLACK_API_URL; a missing token fails the turn. */
export function readSlackSettings(env: NodeJS.ProcessEnv): SlackSettings {
  const token = env.SLACK_BOT_TOKEN?.trim() ?? "";
  if (!token) {
    throw new SwitchboardError(
      "slack.credentials",
      "user",
      "The Slack agent is not configured: set SLACK_BOT_TOKEN (a bot token, xoxb-…, with channels:read, " +
        "channels:history, users:read and chat:write).",
    );
  }
  const apiUrl = env.SLACK_API_URL?.trim() || DEFAULT_SLACK_API_URL;
  return { token, apiUrl: apiUrl.endsWith("/") ? apiUrl : `${apiUrl}/` };
}
