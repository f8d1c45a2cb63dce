import { maskUrlSecrets } from "@switchboard/common";
/**
 * CAIPE's settings that Switchboard does not use, by group, with why: a CAIPE operator's env file
 * keeps working, and what it sets for parts Switchboard does not have is named at start-up instead of
 * being ignored in silence. Every name in CAIPE's own .env.example (0.5.x) is either read by
 * Switchboard or listed here; fleet-config's check keeps it so.
 */
export interface UnusedCaipeGroup {
  /** Exact names, or name prefixes ending in `_` / `*` (e.g. `NEXT_PUBLIC_*`). */
  names: readonly string[];
  /** Why Switchboard does not use them, and what it has instead. */
  why: string;
  /** Values that ask for nothing (e.g. `false` for a feature flag): set to one of these, nothing is said. */
  inert?: readonly string[];
  /** What becomes of them; default "ignored". */
  verdict?: string;
}

const OFF = ["false", "0", "no", "off"];

export const UNUSED_CAIPE_SETTINGS: readonly UnusedCaipeGroup[] = [
  {
    names: ["IMAGE_TAG", "DISTRIBUTED_AGENTS", "CAIPE_DISTRIBUTED_AGENTS"],
    why: "CAIPE's image tag and in-process agents; Switchboard always runs each subagent as its own A2A service",
  },
  {
    names: ["COMPOSE_PROFILES"],
    why:
      "Switchboard's docker-compose.dev.yaml answers to CAIPE's profile names for the supervisor " +
      "(caipe-supervisor), the web chat (caipe-ui, caipe-ui-prod), each agent, dynamic-agents, all-agents, slack-bot, " +
      "tracing and rag (Switchboard's knowledge base, tools/rag-server); " +
      "CAIPE's other profiles (rbac, mcp-servers, …) start nothing",
    verdict: "read by docker compose only",
  },
  {
    names: [
      "SLACK_INTEGRATION_APP_NAME",
      "SLACK_INTEGRATION_ENABLE_AUTH",
      "SLACK_INTEGRATION_AUTH_*",
      "SLACK_LINK_HMAC_SECRET",
      "SLACK_JIT_*",
      "SLACK_WORKSPACE_URL",
      "SLACK_INTEGRATION_BOT_CONFIG",
    ],
    inert: OFF,
    why:
      "the Slack relay acts as each Slack user's own identity, linked once through the web chat's sign-in " +
      "(never as one shared service account, never by creating IdP users), and answers in any channel it is invited to",
  },
  {
    names: ["A2A_TRANSPORT", "SLIM_ENDPOINT"],
    inert: ["p2p"],
    why: "Switchboard speaks A2A over HTTP (CAIPE's p2p); the SLIM transport is not supported",
  },
  {
    names: [
      "ENABLE_CAIPE_UI",
      "CAIPE_UI_BUILD_TARGET",
      "CAIPE_UI_NODE_ENV",
      "CAIPE_UI_COMMAND",
      "CAIPE_UI_IMAGE_SUFFIX",
      "NEXT_PUBLIC_*",
      "NEXTAUTH_*",
      "APP_NAME",
      "TAGLINE",
      "DESCRIPTION",
      "LOGO_URL",
      "LOGO_STYLE",
      "SPINNER_COLOR",
      "SHOW_POWERED_BY",
      "SUPPORT_EMAIL",
      "WORKFLOW_RUNNER_ENABLED",
      "BOOTSTRAP_ADMIN_EMAILS",
      "ALLOW_DEV_ADMIN_WHEN_SSO_DISABLED",
      "IDENTITY_SYNC_*",
    ],
    inert: OFF,
    // Not APP_CONFIG_FILE nor DYNAMIC_AGENTS_ENABLED: agents/dynamic-agents reads CAIPE's app-config
    // file and serves its agents, and npm start honours the switch.
    why:
      "CAIPE's Next.js UI; Switchboard's web chat (tools/web) takes its place, configured by WEB_* and OIDC_* " +
      "(SSO_ENABLED=true signs users in there, as CAIPE's NEXT_PUBLIC_SSO_ENABLED did)",
  },
  {
    names: ["ENABLE_AGENT_FORGE", "AGENT_FORGE_BASE_URL"],
    inert: OFF,
    why: "Agent Forge is not part of Switchboard; a new agent is `pnpm new-agent <name>`",
  },
  {
    // Not ENABLE_RAG nor RAG_SERVER_URL: the supervisor takes a CAIPE RAG server's tools over MCP
    // (agents/supervisor/src/rag/). What is left configures the RAG server and its ingestors.
    names: [
      "ENABLE_GRAPH_RAG",
      "RAG_URL",
      "RAG_ENABLED",
      "RAG_SERVER_PORT",
      "RAG_SERVER_LOG_LEVEL",
      "RAG_MAX_*",
      "RAG_MCP_SERVER_IDS",
      "RAG_TRUSTED_INGESTOR_CLIENT_IDS",
      "RAG_ADMIN_BYPASS_DISABLED",
      "RBAC_INGESTONLY_GROUPS",
      "RBAC_CLIENT_CREDENTIALS_ROLE",
      "INGESTOR_OIDC_*",
      "ALLOW_TRUSTED_NETWORK",
      "TRUSTED_NETWORK_*",
      "CLUSTER_NAME",
    ],
    inert: OFF,
    why: "they configure CAIPE's RAG server and ingestors; Switchboard's own knowledge base (tools/rag-server) takes its sources from KNOWLEDGE_SOURCES_FILE and its port from PORT, and the supervisor uses either server through ENABLE_RAG and RAG_SERVER_URL",
  },
  {
    names: [
      "AGENT_GATEWAY_URL",
      "AGENTGATEWAY_TARGETS_TOKEN",
      "CAIPE_AGENT_CONTEXT_HMAC_SECRET",
      "OPENFGA_RECONCILE_ENABLED",
    ],
    inert: OFF,
    why:
      "no agent gateway or OpenFGA: each Switchboard agent decides every tool call itself with Cedar " +
      "policies (AUTHZ_POLICY_FILE, or the RBAC_* groups)",
  },
  {
    names: [
      "KEYCLOAK_*",
      "AUTHZ_SERVICE_URL",
      "RBAC_CACHE_TTL_SECONDS",
      "OIDC_IDP_HINT",
      "OIDC_REQUIRED_ADMIN_GROUP",
      "OIDC_ENABLE_REFRESH_TOKEN",
      "OIDC_CLIENT_SECRET",
      "OIDC_DISCOVERY_URL",
    ],
    inert: OFF,
    why:
      "Switchboard needs no Keycloak admin access: it verifies tokens from any OIDC provider (OIDC_ISSUER, " +
      "OIDC_AUDIENCE) and the web chat signs in as a public client with PKCE",
  },
  {
    names: [
      "SKIP_AGENT_CONNECTIVITY_CHECK",
      "AGENT_CONNECTIVITY_TIMEOUT",
      "AGENT_CONNECTIVITY_MAX_RETRIES",
      "AGENT_CONNECTIVITY_RETRY_DELAY",
      "AGENT_CONNECTIVITY_STARTUP_DELAY",
      "AGENT_CONNECTIVITY_ENABLE_BACKGROUND",
      "AGENT_CONNECTIVITY_REFRESH_INTERVAL",
      "AGENT_CONNECTIVITY_FAST_CHECK_TIMEOUT",
    ],
    inert: OFF,
    why:
      "Switchboard's supervisor always reads its subagents' cards in the background and leaves out those " +
      "that do not answer (GET /subagents shows them); it has no tunables for it",
  },
  {
    names: ["ENABLE_USER_INFO_TOOL"],
    inert: OFF,
    why: "Switchboard always takes the user's identity from the verified token (AUTH_MODE=jwt), never from the message",
  },
  {
    names: ["MONGODB_ROOT_USERNAME", "MONGODB_ROOT_PASSWORD"],
    why: "they initialise CAIPE's MongoDB container; Switchboard reads only MONGODB_URI (put the user and password in it)",
  },
  {
    names: ["LANGGRAPH_STORE_REDIS_URL", "LANGGRAPH_STORE_EMBEDDINGS_DIMS"],
    why:
      "Switchboard keeps long-term memory in MongoDB or PostgreSQL (LANGGRAPH_STORE_TYPE=postgres), not Redis, and " +
      "reads the embeddings' size from the model's answer",
  },
  {
    names: ["LANGGRAPH_CHECKPOINT_REDIS_URL"],
    why: "LANGGRAPH_CHECKPOINT_TYPE=redis is refused (see its message); use postgres or mongodb",
  },
  {
    names: ["LANGFUSE_SESSION_ID", "LANGFUSE_USER_ID"],
    why: "traces carry each conversation's contextId and the caller's subject instead of fixed ids",
  },
  {
    names: ["AWS_BEDROCK_PROVIDER"],
    why: "the Bedrock Converse API needs no model provider name; AWS_BEDROCK_MODEL_ID alone picks the model",
  },
  {
    names: [
      "SLACK_APP_TOKEN",
      "SLACK_SIGNING_SECRET",
      "SLACK_CLIENT_SECRET",
      "SLACK_TEAM_ID",
      "SLACK_BOT_NAME",
    ],
    why:
      "the Slack agent calls Slack's Web API with SLACK_BOT_TOKEN only; the Slack relay has its own " +
      "SLACK_INTEGRATION_* tokens",
  },
  {
    names: ["JIRA_PROJECTS", "SERVER_URL"],
    why: "read by CAIPE's RAG ingestors, which Switchboard does not have; the Jira and Argo CD agents see what their credentials see",
  },
  {
    names: ["WEBEX_ACCESS_TOKEN"],
    why: "read by CAIPE's Webex RAG ingestor, which Switchboard does not have; the Webex agent reads WEBEX_TOKEN",
  },
];

/** Whether `name` is one of `group`'s. */
function inGroup(group: UnusedCaipeGroup, name: string): boolean {
  return group.names.some((entry) =>
    entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : entry === name,
  );
}

/** The group a CAIPE name belongs to, if Switchboard does not use it. */
export function unusedCaipeGroupOf(name: string): UnusedCaipeGroup | undefined {
  return UNUSED_CAIPE_SETTINGS.find((group) => inGroup(group, name));
}

/** Values that may be secrets are named, never shown. */
const SECRET_NAME = /SECRET|TOKEN|PASSWORD|DSN|(^|_)KEY($|_)|_URI$/;

/**
 * One line per group of CAIPE settings that `env` sets and Switchboard does not use, e.g.
 * `RAG_ENABLED=true, RAG_SERVER_PORT: they configure CAIPE's RAG server and ingestors; …; ignored`.
 */
export function unusedCaipeSettings(env: NodeJS.ProcessEnv): string[] {
  const lines: string[] = [];
  for (const group of UNUSED_CAIPE_SETTINGS) {
    const set = Object.entries(env)
      .filter(([name, value]) => inGroup(group, name) && value?.trim())
      .filter(([, value]) => !group.inert?.includes((value ?? "").trim().toLowerCase()))
      .sort(([a], [b]) => a.localeCompare(b));
    if (set.length === 0) continue;
    // A URL's password is masked before the value is cut, so no cut leaves a piece of one.
    const shown = set.map(([name, value]) =>
      SECRET_NAME.test(name) ? name : `${name}=${maskUrlSecrets((value ?? "").trim()).slice(0, 40)}`,
    );
    lines.push(`${shown.join(", ")}: ${group.why}; ${group.verdict ?? "ignored"}.`);
  }
  return lines;
}

/** Switchboard's own ENABLE_* settings: feature flags, not agents. */
const FEATURE_FLAGS = new Set([
  "ENABLE_AUTO_COMPRESSION",
  "ENABLE_TRACING",
  "ENABLE_FACT_EXTRACTION",
  "ENABLE_RAG",
]);

/**
 * Whether an `ENABLE_<NAME>` variable turns a feature on rather than routing to an agent: the
 * supervisor reads every other `ENABLE_<AGENT>=true` as a subagent to call (CAIPE's rule).
 */
export function isFeatureFlag(name: string): boolean {
  return FEATURE_FLAGS.has(name) || unusedCaipeGroupOf(name) !== undefined;
}
