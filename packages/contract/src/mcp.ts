// biome-ignore-all lint/suspicious/noTemplateCurlyInString: MCP server lists refer to variables as ${VAR}, on purpose.
import { z } from "zod";
import { envPrefixFor } from "./names.js";

/**
 * MCP tool servers of an agent, as its environment configures them. The server list is JSON in the
 * `mcpServers` shape that Claude Desktop, Cursor, VS Code and langchain's MultiServerMCPClient share:
 *
 *   JIRA_MCP_SERVERS={"tickets":{"url":"https://mcp.example.com/mcp","headers":{"Authorization":"Bearer ${TICKETS_TOKEN}"}},
 *                     "memory":{"command":"npx","args":["-y","@modelcontextprotocol/server-memory"]}}
 *
 * An SSE server (the older HTTP+SSE transport) is `{"transport": "sse", "url": ..., "headers": ...}`.
 *
 * `${VAR}` (or `${VAR:-default}`) anywhere in a string is replaced by that variable of the agent's
 * environment, so secrets stay in variables of their own (a Kubernetes Secret, .env) and the list is
 * plain configuration. Header values and a stdio server's env are treated as secrets: never logged.
 */
export interface McpVariables {
  /** The server list: `<AGENT>_MCP_SERVERS`. */
  servers: string;
  /** Tools that run without asking although their server does not mark them read-only. */
  readOnlyTools: string;
  /** Tools that ask first although their server marks them read-only. */
  confirmTools: string;
}

export function mcpVariablesFor(agentName: string): McpVariables {
  const prefix = envPrefixFor(agentName);
  return {
    servers: `${prefix}_MCP_SERVERS`,
    readOnlyTools: `${prefix}_MCP_READ_ONLY_TOOLS`,
    confirmTools: `${prefix}_MCP_CONFIRM_TOOLS`,
  };
}

/** The agent prefix of an MCP variable (`JIRA_MCP_SERVERS` → `JIRA`), or undefined for other names. */
export function mcpVariablePrefix(variable: string): string | undefined {
  return /^([A-Z0-9_]+?)_MCP_(?:SERVERS|READ_ONLY_TOOLS|CONFIRM_TOOLS)$/.exec(variable)?.[1];
}

const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

const common = {
  /** Tool names become `<server>__<tool>`: for two servers that serve tools of the same name. */
  prefixToolNames: z.boolean().default(false),
  /**
   * Calls made for a signed-in user carry that user's token (`Authorization: Bearer <token>`, the MCP
   * authorization spec) instead of the static header. Unset: FORWARD_JWT_TO_MCP decides. HTTP servers
   * only (a stdio server with it set is refused).
   */
  forwardUserToken: z.boolean().optional(),
};

const stdioServer = z
  .strictObject({
    type: z.literal("stdio").optional(),
    transport: z.literal("stdio").optional(),
    command: z.string().trim().min(1, "give the program to run"),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().min(1).optional(),
    ...common,
  })
  .transform(({ type: _type, transport: _transport, ...server }) => ({
    transport: "stdio" as const,
    ...server,
  }));

const httpServer = z
  .strictObject({
    type: z.enum(["http", "streamable-http", "streamableHttp"]).optional(),
    transport: z.enum(["http", "streamable-http", "streamableHttp"]).optional(),
    url: z.string().trim().min(1, "give the server's Streamable HTTP endpoint"),
    headers: z.record(z.string(), z.string()).default({}),
    ...common,
  })
  .transform(({ type: _type, transport: _transport, ...server }) => ({
    transport: "http" as const,
    ...server,
  }));

/** The older HTTP+SSE transport (MCP 2024-11-05), which CAIPE's `transport: sse` servers speak. */
const sseServer = z
  .strictObject({
    type: z.literal("sse").optional(),
    transport: z.literal("sse").optional(),
    url: z.string().trim().min(1, "give the server's SSE endpoint"),
    headers: z.record(z.string(), z.string()).default({}),
    ...common,
  })
  .refine((server) => server.type === "sse" || server.transport === "sse", {
    error: 'an SSE server says so: "transport": "sse"',
  })
  .transform(({ type: _type, transport: _transport, ...server }) => ({
    transport: "sse" as const,
    ...server,
  }));

const server = z.union([stdioServer, httpServer, sseServer], {
  error:
    'an MCP server is {"command": "...", "args": [...], "env": {...}}, {"url": "...", "headers": {...}, "forwardUserToken": true|false} (Streamable HTTP) or {"transport": "sse", "url": "...", "headers": {...}}',
});

/** One server as written in a definition or the env (before `${VAR}` references are filled in). */
export type McpServerInput = z.input<typeof server>;
export type McpServerConfig = z.output<typeof server>;
export type McpStdioServer = Extract<McpServerConfig, { transport: "stdio" }>;
export type McpHttpServer = Extract<McpServerConfig, { transport: "http" }>;
export type McpSseServer = Extract<McpServerConfig, { transport: "sse" }>;

const serverList = z.record(z.string().regex(SERVER_NAME), server);

export type McpServersResult =
  | { ok: true; servers: Record<string, McpServerConfig> }
  | { ok: false; problems: string[] };

/** Checks a server list given as objects (an agent definition's, or parsed JSON). */
export function checkMcpServers(value: unknown): McpServersResult {
  // A pasted .mcp.json / claude_desktop_config.json wraps the list in "mcpServers".
  const list =
    typeof value === "object" && value !== null && "mcpServers" in value
      ? (value as { mcpServers: unknown }).mcpServers
      : value;
  const parsed = serverList.safeParse(list);
  if (parsed.success) {
    const stdioForwarding = Object.entries(parsed.data)
      .filter(([, config]) => config.transport === "stdio" && config.forwardUserToken === true)
      .map(
        ([name]) =>
          `server "${name}" forwardUserToken: a stdio server cannot be given the user's token (the MCP authorization spec sends it over HTTP only; a process gets credentials from its env): remove it, or run the server over Streamable HTTP or SSE`,
      );
    if (stdioForwarding.length > 0) return { ok: false, problems: stdioForwarding };
    return { ok: true, servers: parsed.data };
  }
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const where = issue.path.map(String);
      const [name, ...field] = where;
      if (issue.code === "invalid_key")
        return `server name "${name}": use letters, digits, _ . and - (at most 64)`;
      const what =
        name === undefined ? "the list" : `server "${name}"${field.length > 0 ? ` ${field.join(".")}` : ""}`;
      return `${what}: ${issue.message}`;
    }),
  };
}

/** Parses `<AGENT>_MCP_SERVERS` text: JSON, then checkMcpServers. Blank means no servers. */
export function parseMcpServers(text: string | undefined): McpServersResult {
  if (!text?.trim()) return { ok: true, servers: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      problems: [
        `not JSON (${reason}); write {"<server>": {"command": ...} | {"url": ...}}, in single quotes in an env file`,
      ],
    };
  }
  return checkMcpServers(value);
}

/** A comma- or space-separated list of tool names (`<AGENT>_MCP_READ_ONLY_TOOLS`, `…_CONFIRM_TOOLS`). */
export function parseToolNames(text: string | undefined): string[] {
  return (text ?? "").split(/[\s,]+/).filter(Boolean);
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The variables a server list refers to with `${VAR}`, each with whether it has a default. */
export function mcpReferences(
  servers: Record<string, McpServerConfig>,
): Map<string, { hasDefault: boolean }> {
  const found = new Map<string, { hasDefault: boolean }>();
  const visit = (value: unknown) => {
    if (typeof value === "string") {
      for (const match of value.matchAll(REFERENCE)) {
        const name = match[1] as string;
        found.set(name, { hasDefault: (found.get(name)?.hasDefault ?? true) && match[2] !== undefined });
      }
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(visit);
  };
  visit(servers);
  return found;
}

export interface InterpolatedServer<S extends McpServerConfig = McpServerConfig> {
  server: S;
  /** Values that must never be logged: header values, env values, and what filled a reference in args. */
  secrets: string[];
  /** References to variables that are unset (or blank) and have no default. */
  missing: string[];
}

/** Fills in `${VAR}` / `${VAR:-default}` from `env` (blank counts as unset, as everywhere in the fleet). */
export function interpolateMcpServer<S extends McpServerConfig>(
  server: S,
  env: NodeJS.ProcessEnv,
): InterpolatedServer<S> {
  const missing = new Set<string>();
  const filled: string[] = [];
  const fill = (text: string) =>
    text.replace(REFERENCE, (_whole, name: string, fallback: string | undefined) => {
      const value = env[name]?.trim() ? (env[name] as string) : fallback;
      if (value === undefined) {
        missing.add(name);
        return "";
      }
      filled.push(value);
      return value;
    });
  const fillRecord = (record: Record<string, string>) =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fill(value)]));
  let result: McpServerConfig;
  let secrets: string[];
  if (server.transport === "stdio") {
    const env = fillRecord(server.env);
    const args = server.args.map(fill);
    // What filled a reference in args is a secret too (`--token ${TOKEN}`); the command and cwd are not.
    const argSecrets = [...filled];
    result = {
      ...server,
      command: fill(server.command),
      args,
      env,
      ...(server.cwd ? { cwd: fill(server.cwd) } : {}),
    };
    secrets = [...Object.values(env), ...argSecrets];
  } else {
    const headers = fillRecord(server.headers);
    result = { ...server, url: fill(server.url), headers };
    secrets = Object.values(headers);
  }
  return {
    server: result as S,
    secrets: secrets.filter((value) => value.length >= 4),
    missing: [...missing],
  };
}
