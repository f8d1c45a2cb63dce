import { type AuthSettings, readAuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";

/** The bot's HTTP port (webhooks, health, metrics): beside the web chat's 3000, the Slack bot's 3001 and the MCP server's 3002. */
export const WEBEX_BOT_PORT = 3003;

const WebexBotEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(WEBEX_BOT_PORT),
  HOST: z.string().default("0.0.0.0"),
  /**
   * CAIPE's names: WEBEX_TOKEN (0.5's .env.example) or WEBEX_INTEGRATION_BOT_ACCESS_TOKEN (its webex_bot
   * integration), the bot's access token from developer.webex.com.
   */
  WEBEX_INTEGRATION_BOT_ACCESS_TOKEN: z.string().optional(),
  WEBEX_TOKEN: z.string().optional(),
  /** CAIPE's: the bot's display name, dropped from the start of a message that mentions it (default: as /people/me names it). */
  WEBEX_BOT_NAME: z.string().optional(),
  /** CAIPE's: the HMAC secret Webex signs each webhook request with (X-Spark-Signature). */
  WEBEX_WEBHOOK_SECRET: z
    .string()
    .min(16, "must be at least 16 characters (`openssl rand -hex 32`)")
    .optional(),
  /** Where Webex reaches this bot: its webhooks are registered for `<WEBEX_WEBHOOK_URL>` at start when set. */
  WEBEX_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Webex's REST API (tests point it at testing/fake-webex); the Webex agent's name for it. */
  WEBEX_API_URL: z.url({ protocol: /^https?$/ }).default("https://webexapis.com/v1"),
  CAIPE_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:8000"),
  /** The trigger receiver: Approve and Decline on a triggered run's card are passed on to it. */
  TRIGGERS_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The web chat, where a Webex user links their account (it forwards /webex/link/* here). */
  CAIPE_UI_BASE_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:3000"),
  LANGGRAPH_CHECKPOINT_MONGODB_URI: z.string().optional(),
  MONGODB_URI: z.string().optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: z.string().optional(),
  AUTH_MODE: z.enum(["none", "jwt"]).default("none"),
  /** The web chat's OIDC client, which the account link signs in with (as the Slack bot's). */
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  /** The web chat's scope; the link always adds `openid email offline_access`. */
  OIDC_SCOPE: z.string().default("openid profile"),
  /** Seals each linked user's refresh token (AES-256-GCM). */
  CREDENTIALS_ENCRYPTION_KEY: z.string().optional(),
  /** Shortest time between two edits of one Webex message while a turn streams. */
  WEBEX_INTEGRATION_UPDATE_INTERVAL_MS: z.coerce.number().int().min(0).default(1_500),
  /** How long a turn may be silent before the thread is told it timed out. */
  WEBEX_INTEGRATION_TURN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(300),
});

/** Who a Webex user is at the supervisor: nobody (AUTH_MODE=none), or their own linked principal. */
export type IdentitySettings =
  | { mode: "none" }
  | {
      mode: "linked";
      issuer: string;
      clientId: string;
      scope: string;
      sealingKey: string;
      /** How the bot's own routes (forget-me) verify a user's token: as the agents do (AUTH_*). */
      auth: AuthSettings;
    };

export interface WebexBotSettings {
  port: number;
  host: string;
  token: string;
  botName: string | undefined;
  webhookSecret: string;
  webhookUrl: string | undefined;
  apiUrl: string;
  supervisorUrl: string;
  /** TRIGGERS_URL: where a press on a triggered run's card goes; unset: answered on the web chat only. */
  triggersUrl?: URL;
  /** The web chat's public URL: account links point there. */
  webUrl: string;
  mongo: { uri: string; dbName: string | undefined };
  identity: IdentitySettings;
  updateIntervalMs: number;
  turnTimeoutMs: number;
}

export function readWebexBotSettings(env: NodeJS.ProcessEnv): WebexBotSettings {
  const e = parseEnv(WebexBotEnv, env, { code: "webex-bot.config", what: "Webex bot settings" });
  const fail = (message: string) => new SwitchboardError("webex-bot.config", "user", message);
  const token = e.WEBEX_INTEGRATION_BOT_ACCESS_TOKEN ?? e.WEBEX_TOKEN;
  if (!token)
    throw fail(
      "The Webex bot needs its access token: set WEBEX_TOKEN (or WEBEX_INTEGRATION_BOT_ACCESS_TOKEN), from your bot's page at developer.webex.com.",
    );
  if (!e.WEBEX_WEBHOOK_SECRET)
    throw fail(
      "The Webex bot takes only webhook requests signed by Webex: set WEBEX_WEBHOOK_SECRET (at least 16 characters, `openssl rand -hex 32`); the bot registers its webhooks with it.",
    );
  const uri = e.LANGGRAPH_CHECKPOINT_MONGODB_URI ?? e.MONGODB_URI;
  if (!uri)
    throw fail(
      "The Webex bot keeps its threads and confirmations in MongoDB (so a restart or another replica carries on): set MONGODB_URI.",
    );
  let identity: IdentitySettings = { mode: "none" };
  if (e.AUTH_MODE === "jwt") {
    if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.CREDENTIALS_ENCRYPTION_KEY)
      throw fail(
        "AUTH_MODE=jwt: each Webex user acts as themselves, linked once through the web chat's sign-in. Set OIDC_ISSUER and OIDC_CLIENT_ID (the web chat's) and CREDENTIALS_ENCRYPTION_KEY (sealing the users' refresh tokens; `openssl rand -hex 32`).",
      );
    identity = {
      mode: "linked",
      issuer: e.OIDC_ISSUER,
      clientId: e.OIDC_CLIENT_ID,
      scope: e.OIDC_SCOPE,
      sealingKey: e.CREDENTIALS_ENCRYPTION_KEY,
      auth: readAuthSettings(env, "webex-bot"),
    };
  }
  return {
    port: e.PORT,
    host: e.HOST,
    token,
    botName: e.WEBEX_BOT_NAME,
    webhookSecret: e.WEBEX_WEBHOOK_SECRET,
    webhookUrl: e.WEBEX_WEBHOOK_URL,
    apiUrl: e.WEBEX_API_URL.replace(/\/+$/, ""),
    supervisorUrl: e.CAIPE_URL,
    ...(e.TRIGGERS_URL ? { triggersUrl: new URL(e.TRIGGERS_URL) } : {}),
    webUrl: e.CAIPE_UI_BASE_URL.replace(/\/+$/, ""),
    mongo: { uri, dbName: e.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME },
    identity,
    updateIntervalMs: e.WEBEX_INTEGRATION_UPDATE_INTERVAL_MS,
    turnTimeoutMs: e.WEBEX_INTEGRATION_TURN_TIMEOUT_SECONDS * 1000,
  };
}
