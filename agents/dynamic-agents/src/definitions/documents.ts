// biome-ignore-all lint/suspicious/noTemplateCurlyInString: CAIPE's file refers to variables as ${VAR}, on purpose.
import type { AppConfig } from "./app-config.js";
import { type AgentFields, checkAgent } from "./caipe-agent.js";
import { checkMcpServer } from "./caipe-sources.js";
import { expandVariables, fieldPath, refersToVariables } from "./expand.js";
import type {
  AgentDocument,
  ConfigDocuments,
  DefinitionProblem,
  McpServerDocument,
  ModelDocument,
  ModelSpec,
  StoredAgent,
  StoredMcpServer,
  StoredModel,
  ToolSourceSpec,
} from "./spec.js";

// Definitions between Switchboard's specs and CAIPE's documents: the file's entries as the store
// keeps them, and what the store holds that the API or CAIPE's own UI made, read back.

/** An agent's checked fields as its `dynamic_agents` document (times set by the store). */
export function agentDocument(
  id: string,
  fields: AgentFields,
  owner: { ownerId: string; configDriven: boolean },
): AgentDocument {
  const { extra, ...known } = fields;
  return {
    ...extra,
    _id: id,
    ...known,
    owner_id: owner.ownerId,
    is_system: false,
    config_driven: owner.configDriven,
  };
}

/** The file's valid entries as config-driven documents, as CAIPE's seed writes them. */
export function configDocuments(config: AppConfig): ConfigDocuments {
  const servers = [...config.toolSources, ...config.disabledSources.values()].filter(
    (source): source is Extract<ToolSourceSpec, { kind: "mcp" }> => source.kind === "mcp",
  );
  return {
    agents: [...config.agents].map(([id, { fields }]) =>
      agentDocument(id, fields, { ownerId: "system", configDriven: true }),
    ),
    keepAgents: [...config.invalid],
    mcpServers: servers.map((source) => serverDocument(source, !config.disabledSources.has(source.id))),
    models: config.models.map(modelDocument),
  };
}

/**
 * A server as CAIPE's `mcp_servers` document. Its strings are the file's, `${VAR}` references
 * unexpanded: what the file says, never the secrets the variables hold.
 */
function serverDocument(
  source: Extract<ToolSourceSpec, { kind: "mcp" }>,
  enabled: boolean,
): McpServerDocument {
  const config = source.config as Record<string, unknown>;
  const transport = config.transport as StoredMcpServer["transport"];
  return {
    _id: source.id,
    name: source.name,
    description: source.description ?? "",
    transport,
    ...(transport === "stdio"
      ? {
          command: config.command as string,
          args: config.args as string[],
          env: config.env as Record<string, string>,
        }
      : {
          endpoint: config.url as string,
          headers: config.headers as Record<string, string>,
          ...(config.forwardUserToken !== undefined ? { forward_user_token: config.forwardUserToken } : {}),
        }),
    enabled,
    config_driven: true,
    source: "config",
  };
}

function modelDocument(model: ModelSpec): ModelDocument {
  return {
    _id: model.modelId,
    model_id: model.modelId,
    name: model.name,
    provider: model.provider,
    description: model.description ?? "",
    config_driven: true,
  };
}

/**
 * A server made outside the file (CAIPE's UI writes `mcp_servers` too). Whoever can write that
 * collection is not trusted with the host's environment or its processes: a stdio server (a
 * command run on the host) or a `${VAR}` reference (a variable's value sent to the server) is
 * refused; such servers belong in the file.
 */
export function storedServer(
  doc: StoredMcpServer,
): { ok: true; spec: ToolSourceSpec; enabled: boolean } | { ok: false; problems: DefinitionProblem[] } {
  const at = `mcp_servers.${doc._id}`;
  if (doc.transport === "stdio") {
    return {
      ok: false,
      problems: [
        {
          field: `${at}.transport`,
          message: "a stdio server runs a command on the host: declare it in APP_CONFIG_FILE",
        },
      ],
    };
  }
  if (refersToVariables(doc)) {
    return {
      ok: false,
      problems: [
        {
          field: at,
          message: "refers to variables (${VAR}), which only the file may: declare it in APP_CONFIG_FILE",
        },
      ],
    };
  }
  const { _id, ...rest } = doc;
  const checked = checkMcpServer(doc, { ...rest, id: _id }, at);
  return checked.ok ? { ok: true, spec: checked.spec, enabled: doc.enabled !== false } : checked;
}

/** A model made outside the file, read back as its spec (a provider Switchboard lacks is skipped). */
export function storedModel(doc: StoredModel): ModelSpec {
  return {
    modelId: doc.model_id || doc._id,
    name: doc.name || doc._id,
    provider: doc.provider,
    ...(doc.description ? { description: doc.description } : {}),
  };
}

/**
 * The file's last good reading as it wrote it to the store (its config-driven documents): what a
 * host started with a file that does not read serves, so a broken edit loses nothing on a restart
 * either. (OpenAPI sources are not kept in CAIPE's collections, so agents allowing one wait for the file.)
 */
export function storedConfig(
  agents: readonly StoredAgent[],
  servers: readonly StoredMcpServer[],
  models: readonly StoredModel[],
  env: NodeJS.ProcessEnv,
): AppConfig {
  const config: AppConfig = {
    agents: new Map(),
    invalid: new Set(),
    toolSources: [],
    disabledSources: new Map(),
    models: models.filter((doc) => doc.config_driven).map(storedModel),
    problems: [],
    unused: [],
  };
  for (const doc of servers) {
    if (!doc.config_driven) continue;
    const at = fieldPath("mcp_servers", doc._id);
    const { _id, ...rest } = doc;
    const checked = checkMcpServer(doc, expandVariables({ ...rest, id: _id }, env, at).value, at);
    if (!checked.ok) config.problems.push(...checked.problems);
    else if (doc.enabled === false) config.disabledSources.set(checked.spec.id, checked.spec);
    else config.toolSources.push(checked.spec);
  }
  for (const doc of agents) {
    if (!doc.config_driven) continue;
    const id = String(doc._id);
    const at = fieldPath("dynamic_agents", id);
    const checked = checkAgent(doc, { at, defaultVisibility: "global", id });
    if (checked.ok) config.agents.set(id, { at, fields: checked.fields });
    else {
      config.invalid.add(id);
      config.problems.push(...checked.problems);
    }
  }
  return config;
}
