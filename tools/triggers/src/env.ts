import { type AuthSettings, readAuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";
import type { VendorAccounts } from "./destinations.js";
import type { ServiceClient } from "./service-token.js";

/** The receiver's HTTP port: CAIPE's autonomous-agents service's. */
export const TRIGGERS_PORT = 3004;

const TriggersEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(TRIGGERS_PORT),
  HOST: z.string().default("0.0.0.0"),
  /** The tasks: which trigger starts which agent with which prompt, and where the answer goes. */
  TRIGGERS_CONFIG_FILE: z.string(),
  /** CAIPE's fallback secret for a webhook task that names none of its own. */
  WEBHOOK_SECRET: z.string().optional(),
  /**
   * CAIPE's replay window. CAIPE defaults to 0 (off); here a generic delivery always carries a
   * timestamp, and one older (or further ahead) than this is refused: 300 s, as Slack's and Stripe's.
   */
  WEBHOOK_REPLAY_WINDOW_SECONDS: z.coerce.number().int().min(1).default(300),
  /** CAIPE's: how long a delivery's record (its dedupe key and run) is kept. */
  TRIGGER_INSTANCE_TTL_DAYS: z.coerce.number().int().min(1).default(7),
  /** CAIPE's per-run limit on the agent's silence. */
  DYNAMIC_AGENTS_TIMEOUT_SECONDS: z.coerce.number().positive().default(300),
  /**
   * How long a run is held without renewal: a receiver that dies mid-run is noticed this long after,
   * and its run reported failed where it goes (never run twice).
   */
  TRIGGER_RUN_LEASE_SECONDS: z.coerce.number().positive().default(60),
  /**
   * The agents' own setting: how long a change a run asks to make waits for its approver. Past it the
   * run is reported expired where it goes and nothing is done (the agent would refuse a later answer).
   */
  CONFIRMATION_EXPIRY_SECONDS: z.coerce.number().positive().default(900),
  CAIPE_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:8000"),
  LANGGRAPH_CHECKPOINT_MONGODB_URI: z.string().optional(),
  MONGODB_URI: z.string().optional(),
  LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: z.string().optional(),
  AUTH_MODE: z.enum(["none", "jwt"]).default("none"),
  /**
   * CAIPE's: the service's own client (client-credentials grant) when AUTH_MODE=jwt, the principal of
   * every task that names none of its own (trigger.client_id_env); the token URL and scope serve those too.
   */
  DYNAMIC_AGENTS_OAUTH2_TOKEN_URL: z.url({ protocol: /^https?$/ }).optional(),
  DYNAMIC_AGENTS_OAUTH2_CLIENT_ID: z.string().min(1).optional(),
  DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET: z.string().min(1).optional(),
  DYNAMIC_AGENTS_OAUTH2_SCOPE: z.string().min(1).optional(),
  /** The agents' audience: asked for as the token's resource. */
  AUTH_AUDIENCE: z.string().min(1).optional(),
  /** The bot token the Slack relay uses (CAIPE's name): answers are posted as the same bot. */
  SLACK_INTEGRATION_BOT_TOKEN: z.string().startsWith("xoxb-", "must be a bot token (xoxb-…)").optional(),
  SLACK_API_URL: z.url({ protocol: /^https?$/ }).default("https://slack.com/api/"),
  /** Jira comments are written as the Jira agent's account (CAIPE's names). */
  ATLASSIAN_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  ATLASSIAN_EMAIL: z.string().min(1).optional(),
  ATLASSIAN_TOKEN: z.string().min(1).optional(),
  /** GitHub comments as the GitHub agent's token. */
  GITHUB_PERSONAL_ACCESS_TOKEN: z.string().min(1).optional(),
  GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.github.com"),
  /** PagerDuty notes as the PagerDuty agent's key, made as the user PAGERDUTY_FROM_EMAIL names. */
  PAGERDUTY_API_KEY: z.string().min(1).optional(),
  PAGERDUTY_FROM_EMAIL: z.string().min(1).optional(),
  PAGERDUTY_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.pagerduty.com"),
  /** Webex messages as the Webex bot. */
  WEBEX_INTEGRATION_BOT_ACCESS_TOKEN: z.string().min(1).optional(),
  WEBEX_API_URL: z.url({ protocol: /^https?$/ }).default("https://webexapis.com/v1"),
});

export interface TriggersSettings {
  port: number;
  host: string;
  configFile: string;
  webhookSecret: string | undefined;
  replayWindowSeconds: number;
  instanceTtlDays: number;
  runTimeoutMs: number;
  runLeaseMs: number;
  /** How long a change a run asks for waits for its approver (CONFIRMATION_EXPIRY_SECONDS). */
  confirmationExpiryMs: number;
  supervisorUrl: string;
  mongo: { uri: string; dbName: string | undefined };
  /** The vendors' accounts answers are written with: each set only when its settings are. */
  accounts: VendorAccounts;
  /** AUTH_MODE=jwt: where clients get their tokens, and the service's own; none: runs act as the local principal. */
  identity: ServiceClient | undefined;
  /**
   * How a person's token is verified (AUTH_MODE, AUTH_JWKS_URL, AUTH_ISSUER, AUTH_AUDIENCE, as the
   * agents verify it): the run history and an approver's answer need one under jwt.
   */
  auth: AuthSettings;
}

export function readTriggersSettings(env: NodeJS.ProcessEnv): TriggersSettings {
  const e = parseEnv(TriggersEnv, env, {
    code: "triggers.config",
    aliases: {
      ATLASSIAN_API_URL: ["ATLASSIAN_API_URL", "JIRA_API_URL", "JIRA_URL"],
      ATLASSIAN_EMAIL: ["ATLASSIAN_EMAIL", "JIRA_EMAIL", "JIRA_USER"],
      ATLASSIAN_TOKEN: ["ATLASSIAN_TOKEN", "ATLASSIAN_API_TOKEN", "JIRA_API_TOKEN", "JIRA_TOKEN"],
      GITHUB_PERSONAL_ACCESS_TOKEN: ["GITHUB_PERSONAL_ACCESS_TOKEN", "GITHUB_TOKEN"],
      WEBEX_INTEGRATION_BOT_ACCESS_TOKEN: ["WEBEX_INTEGRATION_BOT_ACCESS_TOKEN", "WEBEX_TOKEN"],
    },
    what: "trigger settings",
    unset: () =>
      "The trigger receiver has no tasks: set TRIGGERS_CONFIG_FILE to the path of a YAML file of tasks (tools/triggers/README.md shows the shape; tools/triggers/examples/triggers.yaml is one to start from).",
  });
  const fail = (message: string) => new SwitchboardError("triggers.config", "user", message);
  let identity: ServiceClient | undefined;
  if (e.AUTH_MODE === "jwt") {
    const tokenUrl = e.DYNAMIC_AGENTS_OAUTH2_TOKEN_URL;
    const clientId = e.DYNAMIC_AGENTS_OAUTH2_CLIENT_ID;
    const clientSecret = e.DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET;
    if (!tokenUrl)
      throw fail(
        "AUTH_MODE=jwt: triggered runs act as OAuth clients of their own (the service's, or a task's), so set DYNAMIC_AGENTS_OAUTH2_TOKEN_URL (your identity provider's token endpoint), with DYNAMIC_AGENTS_OAUTH2_CLIENT_ID and DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET (a confidential client allowed the client-credentials grant).",
      );
    if (Boolean(clientId) !== Boolean(clientSecret))
      throw fail(
        `AUTH_MODE=jwt: ${clientId ? "DYNAMIC_AGENTS_OAUTH2_CLIENT_ID is set without DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET" : "DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET is set without DYNAMIC_AGENTS_OAUTH2_CLIENT_ID"}: set both (the service's own client), or neither when every task names its own (trigger.client_id_env).`,
      );
    identity = {
      tokenUrl,
      client:
        clientId && clientSecret
          ? {
              id: clientId,
              secret: clientSecret,
              settings: "DYNAMIC_AGENTS_OAUTH2_CLIENT_ID and DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET",
            }
          : undefined,
      scope: e.DYNAMIC_AGENTS_OAUTH2_SCOPE,
      resource: e.AUTH_AUDIENCE,
    };
  }
  const uri = e.LANGGRAPH_CHECKPOINT_MONGODB_URI ?? e.MONGODB_URI;
  if (!uri)
    throw fail(
      "MONGODB_URI (or LANGGRAPH_CHECKPOINT_MONGODB_URI) is needed: deliveries are claimed there so each runs once across replicas.",
    );
  return {
    port: e.PORT,
    host: e.HOST,
    configFile: e.TRIGGERS_CONFIG_FILE,
    webhookSecret: e.WEBHOOK_SECRET?.trim() || undefined,
    replayWindowSeconds: e.WEBHOOK_REPLAY_WINDOW_SECONDS,
    instanceTtlDays: e.TRIGGER_INSTANCE_TTL_DAYS,
    runTimeoutMs: e.DYNAMIC_AGENTS_TIMEOUT_SECONDS * 1000,
    runLeaseMs: e.TRIGGER_RUN_LEASE_SECONDS * 1000,
    confirmationExpiryMs: e.CONFIRMATION_EXPIRY_SECONDS * 1000,
    supervisorUrl: e.CAIPE_URL,
    mongo: { uri, dbName: e.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME },
    accounts: {
      ...(e.SLACK_INTEGRATION_BOT_TOKEN
        ? { slack: { botToken: e.SLACK_INTEGRATION_BOT_TOKEN, apiUrl: e.SLACK_API_URL } }
        : {}),
      ...(e.ATLASSIAN_API_URL && e.ATLASSIAN_EMAIL && e.ATLASSIAN_TOKEN
        ? { jira: { url: e.ATLASSIAN_API_URL, email: e.ATLASSIAN_EMAIL, token: e.ATLASSIAN_TOKEN } }
        : {}),
      ...(e.GITHUB_PERSONAL_ACCESS_TOKEN
        ? { github: { apiUrl: e.GITHUB_API_URL, token: e.GITHUB_PERSONAL_ACCESS_TOKEN } }
        : {}),
      ...(e.PAGERDUTY_API_KEY && e.PAGERDUTY_FROM_EMAIL
        ? {
            pagerduty: {
              apiUrl: e.PAGERDUTY_API_URL,
              apiKey: e.PAGERDUTY_API_KEY,
              fromEmail: e.PAGERDUTY_FROM_EMAIL,
            },
          }
        : {}),
      ...(e.WEBEX_INTEGRATION_BOT_ACCESS_TOKEN
        ? { webex: { apiUrl: e.WEBEX_API_URL, token: e.WEBEX_INTEGRATION_BOT_ACCESS_TOKEN } }
        : {}),
    },
    identity,
    auth: readAuthSettings(env, "triggers"),
  };
}
