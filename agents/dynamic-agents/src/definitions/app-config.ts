import { parse } from "yaml";
import { AGENT_FIELDS, type AgentFields, checkAgent, UNUSED_AGENT_FIELDS } from "./caipe-agent.js";
import {
  checkMcpServer,
  checkModel,
  checkOpenApiSource,
  serverEnabled,
  unusedFields,
} from "./caipe-sources.js";
import { expandVariables, fieldPath } from "./expand.js";
import { LIMITS } from "./rules.js";
import type { DefinitionProblem, ModelSpec, ToolSourceSpec } from "./spec.js";

// CAIPE's app-config.yaml, read unchanged: its `models`, `mcp_servers` and `agents` (with `${VAR}`
// and `${VAR:-default}` expanded in agents and servers, as CAIPE's seed does), Switchboard's
// `openapi_sources`, and a line for everything else it holds that Switchboard does not act on.

/** The file's valid entries, and what is wrong with the others. */
export interface AppConfig {
  /** Valid agents by id, in the file's order. */
  agents: Map<string, { at: string; fields: AgentFields }>;
  /** Ids of agents present but invalid: their last good version is kept. */
  invalid: Set<string>;
  toolSources: ToolSourceSpec[];
  /** Servers present with `enabled: false`: an agent allowing one is told so. */
  disabledSources: Map<string, ToolSourceSpec>;
  models: ModelSpec[];
  problems: DefinitionProblem[];
  unused: string[];
}

export type AppConfigResult = { ok: true; config: AppConfig } | { ok: false; problem: DefinitionProblem };

const SECTIONS = ["models", "mcp_servers", "agents", "openapi_sources"] as const;

const UNUSED_SECTIONS: Record<string, string> = {
  workflow_configs: "CAIPE's workflows are not run by Switchboard",
  rag_sources: "CAIPE's RAG ingestion is not run by Switchboard",
};

/**
 * Reads the file's text. A file that is not YAML, or whose sections are not lists, is refused as a
 * whole (`ok: false`, the caller keeps what it had); a bad entry is a problem naming its field, and
 * only that entry is left out.
 */
export function readAppConfig(text: string, env: NodeJS.ProcessEnv, baseDir: string): AppConfigResult {
  const whole = (message: string): AppConfigResult => ({
    ok: false,
    problem: { field: "APP_CONFIG_FILE", message },
  });
  if (Buffer.byteLength(text) > LIMITS.fileBytes) {
    return whole(
      `the file is over ${LIMITS.fileBytes / 1024 / 1024} MB: split it, or move agents to the API`,
    );
  }
  let document: unknown;
  try {
    // Aliases are bounded (a billion-laughs file is refused), and a key written twice is an error.
    document = parse(text, { maxAliasCount: 100, uniqueKeys: true, prettyErrors: true }) ?? {};
  } catch (error) {
    return whole(`not valid YAML: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    return whole("expected a mapping of sections (models, mcp_servers, agents, …) at the top");
  }
  const top = document as Record<string, unknown>;
  const lists: Record<(typeof SECTIONS)[number], Record<string, unknown>[]> = {
    models: [],
    mcp_servers: [],
    agents: [],
    openapi_sources: [],
  };
  for (const section of SECTIONS) {
    const value = top[section];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) return whole(`${section}: expected a list (- entries), not ${typeof value}`);
    const limit =
      section === "agents" ? LIMITS.agents : section === "models" ? LIMITS.models : LIMITS.toolSources;
    if (value.length > limit) return whole(`${section}: at most ${limit} entries`);
    lists[section] = value as Record<string, unknown>[];
  }

  const config: AppConfig = {
    agents: new Map(),
    invalid: new Set(),
    toolSources: [],
    disabledSources: new Map(),
    models: [],
    problems: [],
    unused: [],
  };
  for (const [key, value] of Object.entries(top)) {
    if ((SECTIONS as readonly string[]).includes(key)) continue;
    const count = Array.isArray(value) ? ` (${value.length} entr${value.length === 1 ? "y" : "ies"})` : "";
    config.unused.push(
      `${key}${count}: ignored (${UNUSED_SECTIONS[key] ?? "not a section Switchboard reads: models, mcp_servers, agents, openapi_sources"})`,
    );
  }

  // CAIPE does not expand models (they hold no secrets).
  const modelIds = new Set<string>();
  for (const [index, entry] of lists.models.entries()) {
    const at = `models[${index}]`;
    const checked = checkModel(entry, at);
    if (!checked.ok) config.problems.push(...checked.problems);
    else if (modelIds.has(checked.spec.modelId)) {
      config.problems.push({ field: fieldPath(at, "model_id"), message: "listed twice: keep one entry" });
    } else {
      modelIds.add(checked.spec.modelId);
      config.models.push(checked.spec);
    }
  }

  const sourceIds = new Map<string, string>();
  const addSource = (section: "mcp_servers" | "openapi_sources", entry: unknown, index: number): void => {
    const at = `${section}[${index}]`;
    if (!isRecord(entry)) {
      config.problems.push({ field: at, message: "expected an object" });
      return;
    }
    const expanded = expand(entry, env, at, config);
    const checked =
      section === "mcp_servers"
        ? checkMcpServer(entry, expanded, at)
        : checkOpenApiSource(entry, expanded, at, baseDir);
    if (!checked.ok) {
      config.problems.push(...checked.problems);
      return;
    }
    const first = sourceIds.get(checked.spec.id);
    if (first) {
      config.problems.push({
        field: fieldPath(at, "id"),
        message: `${first} has the id "${checked.spec.id}" already: give each tool source its own id`,
      });
      return;
    }
    sourceIds.set(checked.spec.id, at);
    config.unused.push(...checked.unused);
    if (section === "mcp_servers" && !serverEnabled(expanded))
      config.disabledSources.set(checked.spec.id, checked.spec);
    else config.toolSources.push(checked.spec);
  };
  for (const [index, entry] of lists.mcp_servers.entries()) addSource("mcp_servers", entry, index);
  for (const [index, entry] of lists.openapi_sources.entries()) addSource("openapi_sources", entry, index);

  for (const [index, entry] of lists.agents.entries()) {
    const at = `agents[${index}]`;
    const expanded = isRecord(entry) ? expand(entry, env, at, config) : entry;
    const checked = checkAgent(expanded, { at, defaultVisibility: "global" });
    if (checked.id && config.agents.has(checked.id)) {
      const first = config.agents.get(checked.id)?.at;
      config.problems.push({
        agent: checked.id,
        field: fieldPath(at, "id"),
        message: `${first} has the id "${checked.id}" already: give each agent its own id`,
      });
    } else if (!checked.ok) {
      if (checked.id) config.invalid.add(checked.id);
      config.problems.push(...checked.problems);
    } else {
      config.agents.set(checked.id, { at, fields: checked.fields });
      if (isRecord(entry)) config.unused.push(...unusedFields(entry, at, UNUSED_AGENT_FIELDS, AGENT_FIELDS));
    }
  }
  return { ok: true, config };
}

function expand(
  entry: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  at: string,
  config: AppConfig,
): unknown {
  const { value, missing } = expandVariables(entry, env, at);
  for (const { path, variable } of missing) {
    config.problems.push({
      field: path,
      message: `\${${variable}} is unset and has no default, so it was left empty: set ${variable}, or write \${${variable}:-<default>}`,
    });
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
