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
  LANGGRAPH_CHECKPOINT_MONGODB_URI: z.string().optional(),
  MONGODB_URI: z.string().optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: z.string().optional(),
  AUTH_MODE: z.enum(["none", "jwt"]).default("none"),
  /** Shortest time between two edits of one Webex message while a turn streams. */
  WEBEX_INTEGRATION_UPDATE_INTERVAL_MS: z.coerce.number().int().min(0).default(1_500),
  /** How long a turn may be silent before the thread is told it timed out. */
  WEBEX_INTEGRATION_TURN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(300),
});

export interface WebexBotSettings {
  port: number;
  host: string;
  token: string;
  botName: string | undefined;
  webhookSecret: string;
  webhookUrl: string | undefined;
  apiUrl: string;
  supervisorUrl: string;
  mongo: { uri: string; dbName: string | undefined };
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
  if (e.AUTH_MODE === "jwt")
    throw fail(
      "AUTH_MODE=jwt: the Webex bot cannot yet link Webex users to their sign-in, and will not act for everyone as one principal. Run it with AUTH_MODE=none (a single-user or trusted setup) until linking lands.",
    );
  return {
    port: e.PORT,
    host: e.HOST,
    token,
    botName: e.WEBEX_BOT_NAME,
    webhookSecret: e.WEBEX_WEBHOOK_SECRET,
    webhookUrl: e.WEBEX_WEBHOOK_URL,
    apiUrl: e.WEBEX_API_URL.replace(/\/+$/, ""),
    supervisorUrl: e.CAIPE_URL,
    mongo: { uri, dbName: e.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME },
    updateIntervalMs: e.WEBEX_INTEGRATION_UPDATE_INTERVAL_MS,
    turnTimeoutMs: e.WEBEX_INTEGRATION_TURN_TIMEOUT_SECONDS * 1000,
  };
}
