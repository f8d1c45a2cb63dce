import { notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface SlackSettings {
  token: string;
  /** The Web API base ending in `/`: @slack/web-api's `slackApiUrl`. */
  apiUrl: string;
}

export const DEFAULT_SLACK_API_URL = "https://slack.com/api/";

const SlackEnv = z.object({
  SLACK_BOT_TOKEN: z.string().trim(),
  SLACK_API_URL: z
    .string()
    .trim()
    .default(DEFAULT_SLACK_API_URL)
    .transform((url) => (url.endsWith("/") ? url : `${url}/`)),
});

/** Slack settings: SLACK_BOT_TOKEN (CAIPE's name) and SLACK_API_URL; a missing token fails the turn. */
export function readSlackSettings(env: NodeJS.ProcessEnv): SlackSettings {
  const e = parseEnv(SlackEnv, env, {
    code: "slack.credentials",
    what: "Slack settings",
    unset: notConfigured(
      "Slack",
      "a bot token, xoxb-…, with channels:read, channels:history, users:read and chat:write",
    ),
  });
  return { token: e.SLACK_BOT_TOKEN, apiUrl: e.SLACK_API_URL };
}
