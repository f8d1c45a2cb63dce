import { type AuthSettings, readAuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";

/** The relay's HTTP port (health, metrics, the Events API in HTTP mode, account links): beside the web chat's 3000. */
export const SLACK_BOT_PORT = 3001;

const SlackBotEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(SLACK_BOT_PORT),
  HOST: z.string().default("0.0.0.0"),
  // CAIPE's names: the bot's own tokens (not the Slack agent's SLACK_BOT_TOKEN), and its mode.
  SLACK_INTEGRATION_BOT_TOKEN: z.string().startsWith("xoxb-", "must be a bot token (xoxb-…)"),
  SLACK_INTEGRATION_APP_TOKEN: z
    .string()
    .startsWith("xapp-", "must be an app-level token (xapp-…)")
    .optional(),
  SLACK_INTEGRATION_SIGNING_SECRET: z.string().optional(),
  SLACK_INTEGRATION_BOT_MODE: z.enum(["socket", "http"]).default("socket"),
  /** Where the bot calls Slack's Web API; tests point it at a local workspace. */
  SLACK_API_URL: z.url({ protocol: /^https?$/ }).default("https://slack.com/api/"),
  CAIPE_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:8000"),
  /** The trigger receiver: Approve and Decline on a triggered run's question are passed on to it. */
  TRIGGERS_URL: z.url({ protocol: /^https?$/ }).optional(),
  CAIPE_UI_BASE_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:3000"),
  LANGGRAPH_CHECKPOINT_MONGODB_URI: z.string().optional(),
  MONGODB_URI: z.string().optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: z.string().optional(),
  AUTH_MODE: z.enum(["none", "jwt"]).default("none"),
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  /** The web chat's scope; the link always adds `openid email offline_access` (oidc.ts). */
  OIDC_SCOPE: z.string().default("openid profile"),
  CREDENTIALS_ENCRYPTION_KEY: z.string().optional(),
  /** Shortest time between two edits of one Slack message while a turn streams (Slack allows about one a second). */
  SLACK_INTEGRATION_UPDATE_INTERVAL_MS: z.coerce.number().int().min(0).default(1_000),
  /** How long a turn may be silent before the thread is told it timed out. */
  SLACK_INTEGRATION_TURN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(300),
});

/** Who a Slack user is at the supervisor: nobody (AUTH_MODE=none), or their own linked principal. */
export type IdentitySettings =
  | { mode: "none" }
  | {
      mode: "linked";
      issuer: string;
      clientId: string;
      scope: string;
      sealingKey: string;
      /** How the relay's own routes (forget-me) verify a user's token: as the agents do (AUTH_*). */
      auth: AuthSettings;
    };

export interface SlackBotSettings {
  port: number;
  host: string;
  transport: { mode: "socket"; appToken: string } | { mode: "http"; signingSecret: string };
  botToken: string;
  slackApiUrl: string;
  supervisorUrl: string;
  /** TRIGGERS_URL: where a press on a triggered run's question goes; unset: answered on the web chat only. */
  triggersUrl?: URL;
  /** The web chat's public URL: account links point there. */
  webUrl: string;
  mongo: { uri: string; dbName: string | undefined };
  identity: IdentitySettings;
  updateIntervalMs: number;
  turnTimeoutMs: number;
}

export function readSlackBotSettings(env: NodeJS.ProcessEnv): SlackBotSettings {
  const e = parseEnv(SlackBotEnv, env, { code: "slack-bot.config", what: "Slack bot settings" });
  const fail = (message: string) => new SwitchboardError("slack-bot.config", "user", message);
  let transport: SlackBotSettings["transport"];
  if (e.SLACK_INTEGRATION_BOT_MODE === "socket") {
    if (!e.SLACK_INTEGRATION_APP_TOKEN)
      throw fail(
        "SLACK_INTEGRATION_BOT_MODE=socket needs SLACK_INTEGRATION_APP_TOKEN: an app-level token (xapp-…) with the connections:write scope, from your Slack app's Basic Information page.",
      );
    transport = { mode: "socket", appToken: e.SLACK_INTEGRATION_APP_TOKEN };
  } else {
    if (!e.SLACK_INTEGRATION_SIGNING_SECRET)
      throw fail(
        "SLACK_INTEGRATION_BOT_MODE=http needs SLACK_INTEGRATION_SIGNING_SECRET (your Slack app's Basic Information page) to verify that requests come from Slack.",
      );
    transport = { mode: "http", signingSecret: e.SLACK_INTEGRATION_SIGNING_SECRET };
  }
  const uri = e.LANGGRAPH_CHECKPOINT_MONGODB_URI ?? e.MONGODB_URI;
  if (!uri)
    throw fail(
      "The Slack bot keeps its threads, confirmations and linked users in MongoDB (so a restart or another replica carries on): set MONGODB_URI.",
    );
  let identity: IdentitySettings = { mode: "none" };
  if (e.AUTH_MODE === "jwt") {
    if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.CREDENTIALS_ENCRYPTION_KEY)
      throw fail(
        "AUTH_MODE=jwt: each Slack user acts as themselves, linked once through the web chat's sign-in. Set OIDC_ISSUER and OIDC_CLIENT_ID (the web chat's) and CREDENTIALS_ENCRYPTION_KEY (sealing the users' refresh tokens; `openssl rand -hex 32`).",
      );
    identity = {
      mode: "linked",
      issuer: e.OIDC_ISSUER,
      clientId: e.OIDC_CLIENT_ID,
      scope: e.OIDC_SCOPE,
      sealingKey: e.CREDENTIALS_ENCRYPTION_KEY,
      auth: readAuthSettings(env, "slack-bot"),
    };
  }
  return {
    port: e.PORT,
    host: e.HOST,
    transport,
    botToken: e.SLACK_INTEGRATION_BOT_TOKEN,
    slackApiUrl: e.SLACK_API_URL.endsWith("/") ? e.SLACK_API_URL : `${e.SLACK_API_URL}/`,
    supervisorUrl: e.CAIPE_URL,
    ...(e.TRIGGERS_URL ? { triggersUrl: new URL(e.TRIGGERS_URL) } : {}),
    webUrl: e.CAIPE_UI_BASE_URL.replace(/\/+$/, ""),
    mongo: { uri, dbName: e.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME },
    identity,
    updateIntervalMs: e.SLACK_INTEGRATION_UPDATE_INTERVAL_MS,
    turnTimeoutMs: e.SLACK_INTEGRATION_TURN_TIMEOUT_SECONDS * 1000,
  };
}
