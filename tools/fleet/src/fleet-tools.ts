import { join, resolve } from "node:path";
import { MCP_SERVER_PORT, WEB_UI_PORT } from "@switchboard/contract";
import { type FleetMember, type FleetOptions, loopbackPort, startMember } from "./member.js";

// The tools npm start runs beside the agents: the web chat, the relays, the MCP server, the knowledge
// base and the trigger receiver, each a package under tools/ on its own port.

export const WEB = "web";
export const SLACK_BOT = "slack-bot";
export const WEBEX_BOT = "webex-bot";
export const MCP_SERVER = "mcp-server";
export const RAG_SERVER = "rag-server";
export const TRIGGERS = "triggers";

/** tools/slack-bot's own port (its health, metrics and account-link pages), beside the web chat's. */
const SLACK_BOT_PORT = 3001;
/** tools/webex-bot's own port (Webex's webhooks, its health and metrics), beside the Slack relay's. */
const WEBEX_BOT_PORT = 3003;
/** tools/triggers' own port (webhooks, schedules, run history), CAIPE's autonomous agents' 8002 being the weather agent's here. */
const TRIGGERS_PORT = 3004;
/** CAIPE's RAG server's port. */
const RAG_SERVER_PORT = 9446;

/** The sources npm start gives the knowledge base when KNOWLEDGE_SOURCES_FILE is unset: one upload source everyone reads. */
export const DEFAULT_KNOWLEDGE_SOURCES = join(import.meta.dirname, "..", "config", "knowledge-sources.yaml");

/** Starts tools/<name> on `port` (on the loopback unless HOST says otherwise), `env` over the fleet's. */
function startTool(
  options: FleetOptions,
  name: string,
  port: string,
  env: NodeJS.ProcessEnv = {},
): Promise<FleetMember> {
  return startMember(options, name, join(options.root, "tools", name), {
    ...options.env,
    HOST: options.env.HOST ?? "127.0.0.1",
    PORT: port,
    ...env,
  });
}

/**
 * How a relay or server reaches the supervisor: the local one unless CAIPE_URL names another, with
 * links for people (account links, approvals) on the local web chat unless CAIPE_UI_BASE_URL names another.
 */
function supervisorFor(options: FleetOptions, supervisorUrl: string, webUrl?: string): NodeJS.ProcessEnv {
  return {
    CAIPE_URL: options.env.CAIPE_URL?.trim() || supervisorUrl,
    ...(webUrl && !options.env.CAIPE_UI_BASE_URL?.trim() ? { CAIPE_UI_BASE_URL: webUrl } : {}),
  };
}

function slackBotPort(env: NodeJS.ProcessEnv): string {
  return env.SLACK_BOT_PORT?.trim() || String(SLACK_BOT_PORT);
}

function webexBotPort(env: NodeJS.ProcessEnv): string {
  return env.WEBEX_BOT_PORT?.trim() || String(WEBEX_BOT_PORT);
}

/**
 * tools/web on WEB_PORT (default its contract port, 3000), forwarding to the supervisor, and offering
 * the relays' account-link pages on its origin.
 */
export function startWeb(options: FleetOptions, supervisorUrl: string): Promise<FleetMember> {
  const { env } = options;
  return startTool(options, WEB, env.WEB_PORT?.trim() || String(WEB_UI_PORT), {
    SWITCHBOARD_URL: supervisorUrl,
    ...(env.SLACK_INTEGRATION_BOT_TOKEN?.trim() && !env.SLACK_BOT_URL?.trim()
      ? { SLACK_BOT_URL: `http://127.0.0.1:${slackBotPort(env)}` }
      : {}),
    ...(env.WEBEX_WEBHOOK_SECRET?.trim() && !env.WEBEX_BOT_URL?.trim()
      ? { WEBEX_BOT_URL: `http://127.0.0.1:${webexBotPort(env)}` }
      : {}),
  });
}

/** tools/slack-bot (the relay between Slack and the supervisor) on SLACK_BOT_PORT (default 3001). */
export function startSlackBot(
  options: FleetOptions,
  supervisorUrl: string,
  webUrl: string | undefined,
): Promise<FleetMember> {
  return startTool(
    options,
    SLACK_BOT,
    slackBotPort(options.env),
    supervisorFor(options, supervisorUrl, webUrl),
  );
}

/** tools/webex-bot (the relay between Webex and the supervisor) on WEBEX_BOT_PORT (default 3003). */
export function startWebexBot(
  options: FleetOptions,
  supervisorUrl: string,
  webUrl: string | undefined,
): Promise<FleetMember> {
  return startTool(
    options,
    WEBEX_BOT,
    webexBotPort(options.env),
    supervisorFor(options, supervisorUrl, webUrl),
  );
}

/** tools/mcp-server (the supervisor for MCP clients) on MCP_SERVER_PORT (default 3002), approvals on the web chat. */
export function startMcpServer(
  options: FleetOptions,
  supervisorUrl: string,
  webUrl: string | undefined,
): Promise<FleetMember> {
  const port = options.env.MCP_SERVER_PORT?.trim() || String(MCP_SERVER_PORT);
  return startTool(options, MCP_SERVER, port, supervisorFor(options, supervisorUrl, webUrl));
}

/**
 * tools/triggers on TRIGGERS_PORT (default 3004) with TRIGGERS_CONFIG_FILE (relative to the
 * repository, as APP_CONFIG_FILE), its runs on the local supervisor unless CAIPE_URL names another.
 */
export function startTriggers(options: FleetOptions, supervisorUrl: string): Promise<FleetMember> {
  const port = options.env.TRIGGERS_PORT?.trim() || String(TRIGGERS_PORT);
  return startTool(options, TRIGGERS, port, {
    TRIGGERS_CONFIG_FILE: resolve(options.root, options.env.TRIGGERS_CONFIG_FILE?.trim() ?? ""),
    ...supervisorFor(options, supervisorUrl),
  });
}

/**
 * Whether npm start runs Switchboard's knowledge base: when embeddings are configured
 * (EMBEDDINGS_PROVIDER: it searches by meaning), unless ENABLE_RAG=false or RAG_SERVER_URL names
 * another machine's RAG server (CAIPE's, which the supervisor then uses as it is).
 */
export function ragServerWanted(env: NodeJS.ProcessEnv): boolean {
  if (["false", "0", "no", "off"].includes(env.ENABLE_RAG?.trim().toLowerCase() ?? "")) return false;
  if (env.RAG_SERVER_URL?.trim() && !loopbackPort(env.RAG_SERVER_URL)) return false;
  return Boolean(env.EMBEDDINGS_PROVIDER?.trim());
}

/**
 * tools/rag-server on the port of RAG_SERVER_URL when that names this machine, else 9446 (CAIPE's),
 * on the embedded PGlite unless KNOWLEDGE_POSTGRES_DSN is set, with KNOWLEDGE_SOURCES_FILE (relative
 * to the repository) or DEFAULT_KNOWLEDGE_SOURCES.
 */
export function startRagServer(options: FleetOptions): Promise<FleetMember> {
  const { env, root } = options;
  const sources = env.KNOWLEDGE_SOURCES_FILE?.trim();
  return startTool(options, RAG_SERVER, loopbackPort(env.RAG_SERVER_URL) ?? String(RAG_SERVER_PORT), {
    KNOWLEDGE_SOURCES_FILE: sources ? resolve(root, sources) : DEFAULT_KNOWLEDGE_SOURCES,
    KNOWLEDGE_PGLITE_DIR: resolve(root, env.KNOWLEDGE_PGLITE_DIR?.trim() || ".data/knowledge"),
  });
}
