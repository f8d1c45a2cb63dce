// biome-ignore-all lint/suspicious/noTemplateCurlyInString: CAIPE's file refers to variables as ${VAR}, on purpose.
import { isAbsolute, resolve } from "node:path";
import type { McpServerInput } from "@switchboard/contract";
import { z } from "zod";
import { zodProblems } from "./caipe-agent.js";
import { fieldPath } from "./expand.js";
import {
  LIMITS,
  MODEL_PROVIDER_RULE,
  MODEL_PROVIDERS,
  TOOL_SOURCE_ID,
  TOOL_SOURCE_ID_RULE,
} from "./rules.js";
import type { DefinitionProblem, ModelSpec, ToolSourceSpec } from "./spec.js";

// CAIPE's `mcp_servers` and `models` entries, and Switchboard's `openapi_sources`, checked and
// brought to the specs the host builds from.

const id = z.string().regex(TOOL_SOURCE_ID, TOOL_SOURCE_ID_RULE);
const text = z.string().max(LIMITS.text, `at most ${LIMITS.text} characters`);
const stringMap = z
  .record(z.string().min(1).max(LIMITS.name), text)
  .refine((map) => Object.keys(map).length <= LIMITS.entries, `at most ${LIMITS.entries} entries`);

const mcpServer = z.object({
  id,
  name: z.string().trim().min(1).max(LIMITS.name).optional(),
  description: z.string().max(LIMITS.description).nullish(),
  // CAIPE's seed defaults to stdio.
  transport: z
    .enum(["http", "sse", "stdio"], { error: "use http (Streamable HTTP), sse or stdio" })
    .default("stdio"),
  endpoint: z.string().max(LIMITS.url).nullish(),
  command: text.nullish(),
  args: z.array(text).max(LIMITS.entries).nullish(),
  env: stringMap.nullish(),
  enabled: z.boolean().default(true),
  /** Switchboard extensions: static headers (`Authorization: Bearer ${TOKEN}`), and the user's token forwarded. */
  headers: stringMap.nullish(),
  forward_user_token: z.boolean().optional(),
});

/** CAIPE's MCP server fields Switchboard does not act on, and why. */
const UNUSED_SERVER_FIELDS: Record<string, string> = {
  credential_sources:
    "CAIPE's credential sources are not resolved; give headers (Authorization: Bearer $TOKEN as a ${VAR} reference) or forward_user_token",
  agentgateway_discovered: "AgentGateway discovery is CAIPE's",
  agentgateway_endpoint: "AgentGateway discovery is CAIPE's",
  agentgateway_target_endpoint: "AgentGateway discovery is CAIPE's",
  owner_team_slug: "MCP servers are not owned by teams in Switchboard",
};
const SERVER_KNOWN = new Set([
  ...Object.keys(mcpServer.shape),
  ...Object.keys(UNUSED_SERVER_FIELDS),
  "_id",
  "source",
  "config_driven",
  "owner_id",
  "owner_subject",
  "created_at",
  "updated_at",
]);

export type SourceCheck<T> =
  | { ok: true; spec: T; unused: string[] }
  | { ok: false; problems: DefinitionProblem[] };

/**
 * One `mcp_servers` entry. `expanded` (with `${VAR}` filled in) is what is checked; the config keeps
 * the references as `raw` writes them, for the runtime to fill in when it connects, so header and
 * env values (secrets) are never held in a spec or logged.
 */
export function checkMcpServer(
  raw: Record<string, unknown>,
  expanded: unknown,
  at: string,
): SourceCheck<ToolSourceSpec> {
  const parsed = mcpServer.safeParse(expanded);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, at) };
  const server = parsed.data;
  const problems: DefinitionProblem[] = [];
  const rawText = (key: string) => (typeof raw[key] === "string" ? (raw[key] as string) : "");
  let config: McpServerInput;
  if (server.transport === "stdio") {
    if (!server.command?.trim()) {
      problems.push({ field: fieldPath(at, "command"), message: "a stdio server needs the command to run" });
    }
    if (server.forward_user_token) {
      problems.push({
        field: fieldPath(at, "forward_user_token"),
        message: "a stdio server cannot be given the user's token: remove it, or run the server over http",
      });
    }
    config = {
      transport: "stdio",
      command: rawText("command").trim(),
      args: (raw.args as string[] | undefined) ?? [],
      env: (raw.env as Record<string, string> | undefined) ?? {},
    };
  } else {
    const endpoint = server.endpoint?.trim() ?? "";
    const problem = endpointProblem(endpoint, server.transport);
    if (problem) problems.push({ field: fieldPath(at, "endpoint"), message: problem });
    const headers = (raw.headers as Record<string, string> | undefined) ?? {};
    const common = {
      url: rawText("endpoint").trim(),
      headers,
      ...(server.forward_user_token !== undefined ? { forwardUserToken: server.forward_user_token } : {}),
    };
    // `sse` is the contract's third transport (McpServerInput gains it with the runtime's SSE client).
    config = (
      server.transport === "http" ? { transport: "http", ...common } : { transport: "sse", ...common }
    ) as McpServerInput;
  }
  if (problems.length > 0) return { ok: false, problems };
  const unused = unusedFields(raw, at, UNUSED_SERVER_FIELDS, SERVER_KNOWN);
  return {
    ok: true,
    spec: {
      kind: "mcp",
      id: server.id,
      name: server.name ?? server.id,
      ...(server.description ? { description: server.description } : {}),
      config,
    },
    unused: server.enabled
      ? unused
      : [...unused, `${at} (${server.id}): enabled: false, so no agent gets its tools`],
  };
}

/** Whether `checkMcpServer`'s server is enabled (a disabled one is no tool source). */
export function serverEnabled(expanded: unknown): boolean {
  return !(expanded && typeof expanded === "object" && (expanded as { enabled?: unknown }).enabled === false);
}

function endpointProblem(endpoint: string, transport: "http" | "sse"): string | undefined {
  const example = transport === "sse" ? "https://mcp.example.com/sse" : "https://mcp.example.com/mcp";
  if (!endpoint) return `a ${transport} server needs its endpoint, e.g. ${example}`;
  try {
    const url = new URL(endpoint);
    if (url.protocol === "http:" || url.protocol === "https:") return undefined;
  } catch {
    // said below
  }
  return `not an http(s) URL: give the server's endpoint, e.g. ${example}`;
}

const openApiSource = z.strictObject({
  id,
  name: z.string().trim().min(1).max(LIMITS.name).optional(),
  description: z.string().max(LIMITS.description).nullish(),
  document: z.string().trim().min(1, "give the OpenAPI description's path or URL").max(LIMITS.url),
  base_url: z.string().trim().max(LIMITS.url).nullish(),
  auth: stringMap.nullish(),
  // The first server's variables (openapi-tools' serverVariables) and OAuth2 token endpoints by
  // scheme (tokenUrls: instead of the description's tokenUrl).
  server_variables: stringMap.nullish(),
  token_urls: stringMap.nullish(),
  // Which operations become tools, and how many the model is offered one by one (openapi-tools' tools()).
  tags: z.array(z.string().trim().min(1).max(LIMITS.name)).max(LIMITS.toolNames).nullish(),
  operations: z.array(z.string().trim().min(1).max(LIMITS.name)).max(LIMITS.toolNames).nullish(),
  max_tools: z
    .number({ error: "give a whole number of tools, 1 or more (default 40)" })
    .int("give a whole number of tools, 1 or more (default 40)")
    .min(1, "give a whole number of tools, 1 or more (default 40)")
    .max(LIMITS.toolNames, `at most ${LIMITS.toolNames}`)
    .nullish(),
});

/**
 * One `openapi_sources` entry (a Switchboard extension): a relative document path is read from the
 * file's folder. `auth` keeps its `${VAR}` references for the OpenAPI tools to fill in (secrets).
 * `server_variables` and `token_urls` are openapi-tools' `serverVariables` and `tokenUrls`.
 * `tags`, `operations` and `max_tools` bound what a large description offers the model; a tag or
 * operation the description lacks is named when the source is connected (the host reads it then).
 */
export function checkOpenApiSource(
  raw: Record<string, unknown>,
  expanded: unknown,
  at: string,
  baseDir: string,
): SourceCheck<ToolSourceSpec> {
  const parsed = openApiSource.safeParse(expanded);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, at) };
  const source = parsed.data;
  if (source.base_url) {
    const ok = URL.canParse(source.base_url) && /^https?:$/.test(new URL(source.base_url).protocol);
    if (!ok) {
      return {
        ok: false,
        problems: [
          { field: fieldPath(at, "base_url"), message: "not an http(s) URL: give the API's base URL" },
        ],
      };
    }
  }
  for (const [scheme, url] of Object.entries(source.token_urls ?? {}))
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      return {
        ok: false,
        problems: [
          {
            field: fieldPath(fieldPath(at, "token_urls"), scheme),
            message: "not an http(s) URL: give the scheme's OAuth2 token endpoint",
          },
        ],
      };
  const isUrl = /^https?:\/\//i.test(source.document);
  const auth = raw.auth as Record<string, string> | undefined;
  return {
    ok: true,
    spec: {
      kind: "openapi",
      id: source.id,
      name: source.name ?? source.id,
      ...(source.description ? { description: source.description } : {}),
      document: isUrl || isAbsolute(source.document) ? source.document : resolve(baseDir, source.document),
      ...(source.base_url ? { baseUrl: source.base_url } : {}),
      ...(auth ? { auth } : {}),
      ...(source.server_variables ? { serverVariables: source.server_variables } : {}),
      ...(source.token_urls ? { tokenUrls: source.token_urls } : {}),
      ...(source.tags ? { tags: source.tags } : {}),
      ...(source.operations ? { operations: source.operations } : {}),
      ...(source.max_tools ? { maxTools: source.max_tools } : {}),
    },
    unused: [],
  };
}

const modelEntry = z.object({
  model_id: z.string().trim().min(1, "give the model's id, as its provider names it").max(LIMITS.name),
  name: z.string().trim().min(1).max(LIMITS.name).optional(),
  provider: z.enum(MODEL_PROVIDERS, { error: MODEL_PROVIDER_RULE }),
  description: z.string().max(LIMITS.description).nullish(),
});

/** One `models` entry (CAIPE's `llm_models` document shape). */
export function checkModel(raw: unknown, at: string): SourceCheck<ModelSpec> {
  const parsed = modelEntry.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, at) };
  const model = parsed.data;
  return {
    ok: true,
    spec: {
      modelId: model.model_id,
      name: model.name ?? model.model_id,
      provider: model.provider,
      ...(model.description ? { description: model.description } : {}),
    },
    unused: [],
  };
}

/** One line for each field present that Switchboard does not act on, and one for each it does not know. */
export function unusedFields(
  raw: Record<string, unknown>,
  at: string,
  unused: Record<string, string>,
  known: ReadonlySet<string>,
): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key in unused && !isEmpty(value)) lines.push(`${fieldPath(at, key)}: ignored (${unused[key]})`);
    else if (!known.has(key) && !(key in unused)) {
      lines.push(
        `${fieldPath(at, key)}: ignored (not a field CAIPE or Switchboard defines here: check its spelling)`,
      );
    }
  }
  return lines;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}
