import { SignInNeeded } from "./api.js";

/** CAIPE's `model`: which model an agent runs on, by provider (aws-bedrock, openai, anthropic-claude, …). */
export interface ModelRef {
  id: string;
  provider: string;
}

/** CAIPE's `SubAgentRef`, with Switchboard's `url` for an A2A agent that is not configured here. */
export interface SubagentRef {
  agent_id?: string;
  name: string;
  description: string;
  url?: string;
}

/** server id → tool name → `true` or the decisions the reviewer may make (CAIPE's `interrupt_on`). */
export type InterruptOn = Record<string, Record<string, boolean | { allowed_decisions: string[] }>>;

/** An agent as CAIPE's API answers it (`DynamicAgentConfig`); only the fields this page reads. */
export interface ConfiguredAgent {
  /** CAIPE's documents carry `_id`; `id` is accepted as well. */
  _id?: string;
  id?: string;
  name: string;
  description?: string | null;
  system_prompt: string;
  model: ModelRef;
  allowed_tools?: Record<string, boolean | string[]>;
  subagents?: SubagentRef[];
  interrupt_on?: InterruptOn;
  visibility?: "team" | "global" | "private";
  /** The team that owns it (CAIPE's slug; `owner_team` in the file). */
  owner_team_slug?: string | null;
  owner_team?: string | null;
  shared_with_teams?: string[] | null;
  enabled?: boolean;
  /** From the configuration file (APP_CONFIG_FILE): read-only here. */
  config_driven?: boolean;
  is_system?: boolean;
  updated_at?: string;
  /** What the host could not take of this agent (it keeps serving the last good one), by field. */
  problems?: Array<{ field: string; message: string }>;
}

/** CAIPE's `DynamicAgentConfigCreate` (and, without `id`, the fields of an update). */
export interface AgentBody {
  id: string;
  name: string;
  description: string;
  system_prompt: string;
  model: ModelRef;
  allowed_tools: Record<string, true | string[]>;
  subagents: SubagentRef[];
  interrupt_on: InterruptOn;
  visibility: "team" | "global";
  /** null: no owning team. */
  owner_team_slug: string | null;
  shared_with_teams: string[];
  enabled: boolean;
}

/** A model the host offers (`GET /api/v1/llm-models`, CAIPE's `LlmModelDescriptor`). */
export interface LlmModel {
  model_id: string;
  name: string;
  provider: string;
  description?: string;
}

/** A tool server the host offers (`GET /api/v1/mcp-servers`), and its tools when it lists them. */
export interface ToolServer {
  id: string;
  name: string;
  description?: string;
  enabled: boolean;
  /** Tool names, when the host lists them; undefined: not listed (the form takes names as typed). */
  tools?: Array<{ name: string; description?: string }>;
}

/** What the API refused, and why: by field when it names one. */
export class AgentsApiError extends Error {
  override readonly name = "AgentsApiError";
  constructor(
    message: string,
    readonly status: number,
    /** Field path (as CAIPE names it, e.g. `allowed_tools.github`) → its message. */
    readonly fields: Record<string, string> = {},
    /** The web server has no DYNAMIC_AGENTS_URL: the feature is off, not broken. */
    readonly off = false,
  ) {
    super(message);
  }
}

const PAGE_SIZE = 100;
/** The list is read up to this many pages (10,000 agents), so a host that always says "more" cannot loop the page. */
const MAX_PAGES = 100;

/** CAIPE's agent API on the dynamic-agents host, through the web server's /api/v1. */
export class AgentsApi {
  constructor(private readonly token: () => string | undefined) {}

  /** Every agent the caller may see, page by page as CAIPE paginates. */
  async agents(): Promise<ConfiguredAgent[]> {
    const all: ConfiguredAgent[] = [];
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const data = await this.call("GET", `/api/v1/agents?page=${page}&limit=${PAGE_SIZE}`);
      const { items, more } = pageOf<ConfiguredAgent>(data, page);
      all.push(...items);
      if (!more || items.length === 0) break;
    }
    return all;
  }

  async create(body: AgentBody): Promise<ConfiguredAgent> {
    return (await this.call("POST", "/api/v1/agents", body)) as ConfiguredAgent;
  }

  /** CAIPE's partial update: only the fields sent change (the form sends what it shows). */
  async update(id: string, body: Omit<AgentBody, "id">): Promise<ConfiguredAgent> {
    return (await this.call("PATCH", agentPath(id), body)) as ConfiguredAgent;
  }

  async remove(id: string): Promise<void> {
    await this.call("DELETE", agentPath(id));
  }

  async models(): Promise<LlmModel[]> {
    const data = await this.call("GET", "/api/v1/llm-models");
    return pageOf<LlmModel>(data, 1).items;
  }

  async toolServers(): Promise<ToolServer[]> {
    const data = await this.call("GET", "/api/v1/mcp-servers?page=1&limit=100");
    return pageOf<Record<string, unknown>>(data, 1).items.map(toolServerOf);
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const token = this.token();
    const response = await fetch(path, {
      method,
      headers: {
        accept: "application/json",
        ...(body ? { "content-type": "application/json" } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (response.status === 401) throw new SignInNeeded("Your sign-in has expired; sign in again.");
    const answer = (await response.json().catch(() => undefined)) as unknown;
    if (!response.ok) throw errorOf(response.status, answer);
    // CAIPE's envelope ({ success, data, error }); a bare answer (FastAPI's lists) is taken as it is.
    return isRecord(answer) && "success" in answer ? answer.data : answer;
  }
}

/** A refusal (403) in words that say the user may not configure agents, and the host's reason. */
export function refusalOf(error: AgentsApiError): string {
  return /^you may not\b/i.test(error.message)
    ? error.message
    : `You may not configure agents: ${error.message}`;
}

/**
 * One agent's address. The id comes from the API, so it is encoded, and an empty or dot id (which
 * the browser would resolve to another address, e.g. the list's) is refused before anything is sent.
 */
export function agentPath(id: string): string {
  if (id === "" || id === "." || id === "..") {
    throw new AgentsApiError(`The host gave an agent the id "${id}", which cannot be its address.`, 0);
  }
  return `/api/v1/agents/${encodeURIComponent(id)}`;
}

/** An agent's id, whichever of CAIPE's names carries it. */
export function agentIdOf(agent: ConfiguredAgent): string {
  return agent._id ?? agent.id ?? "";
}

/** Items of a list answer: CAIPE's paginated `{ items, total, page, … }`, or a plain array. */
function pageOf<T>(data: unknown, page: number): { items: T[]; more: boolean } {
  if (Array.isArray(data)) return { items: data as T[], more: false };
  if (!isRecord(data) || !Array.isArray(data.items)) return { items: [], more: false };
  const items = data.items as T[];
  const more =
    data.has_more === true ||
    (typeof data.total_pages === "number" && page < data.total_pages) ||
    (typeof data.total === "number" && typeof data.limit === "number" && page * data.limit < data.total);
  return { items, more };
}

function toolServerOf(item: Record<string, unknown>): ToolServer {
  const tools = Array.isArray(item.tools)
    ? item.tools.flatMap((tool) =>
        typeof tool === "string"
          ? [{ name: tool }]
          : isRecord(tool) && typeof tool.name === "string"
            ? [
                {
                  name: tool.name,
                  ...(typeof tool.description === "string" ? { description: tool.description } : {}),
                },
              ]
            : [],
      )
    : undefined;
  const id = String(item._id ?? item.id ?? "");
  return {
    id,
    name: typeof item.name === "string" && item.name ? item.name : id,
    ...(typeof item.description === "string" ? { description: item.description } : {}),
    enabled: item.enabled !== false,
    ...(tools ? { tools } : {}),
  };
}

/**
 * The API's refusal in words, with the fields it names: CAIPE's envelope (`error`, and `field` or
 * `problems: [{ field, message }]`), or FastAPI's `detail` (a string, or `[{ loc, msg }]`).
 */
export function errorOf(status: number, answer: unknown): AgentsApiError {
  const body = isRecord(answer) ? answer : {};
  const fields: Record<string, string> = {};
  const add = (field: unknown, message: unknown) => {
    if (typeof field === "string" && field && typeof message === "string") fields[field] ??= message;
  };
  for (const list of [body.problems, body.errors, body.details]) {
    if (Array.isArray(list)) for (const p of list) if (isRecord(p)) add(p.field ?? p.path, p.message);
  }
  if (Array.isArray(body.detail)) {
    for (const p of body.detail) {
      if (isRecord(p) && Array.isArray(p.loc)) {
        const loc = p.loc.filter((part) => part !== "body");
        add(
          loc
            .map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`))
            .join("")
            .slice(1),
          p.msg,
        );
      }
    }
  }
  add(body.field, body.error ?? body.message);
  const message =
    typeof body.error === "string"
      ? body.error
      : typeof body.detail === "string"
        ? body.detail
        : typeof body.message === "string"
          ? body.message
          : (Object.values(fields)[0] ?? `The dynamic-agents host answered HTTP ${status}.`);
  return new AgentsApiError(message, status, fields, status === 503 && body.code === "dynamic_agents_off");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
