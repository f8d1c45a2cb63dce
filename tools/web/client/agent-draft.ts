import type {
  AgentBody,
  ConfiguredAgent,
  InterruptOn,
  LlmModel,
  SubagentRef,
  ToolServer,
} from "./agents-api.js";
import { agentIdOf } from "./agents-api.js";

/** How an agent uses one tool server: not at all, all its tools, or the ones named. */
export interface ServerUse {
  mode: "off" | "all" | "some";
  /** The tools named, when `some`. */
  only: string[];
  /** Tools that ask the user first (CAIPE's `interrupt_on`); `*` for all of them. */
  askFirst: string[];
}

export interface SubagentDraft {
  name: string;
  description: string;
  /** Another configured agent (by id), or any A2A agent by its URL. */
  kind: "agent" | "url";
  agentId: string;
  url: string;
}

/** What the form holds: CAIPE's agent, as fields a person edits. */
export interface AgentDraft {
  id: string;
  name: string;
  description: string;
  systemPrompt: string;
  /** `modelKey(provider, id)`, or "" when none is chosen. */
  model: string;
  tools: Record<string, ServerUse>;
  subagents: SubagentDraft[];
  visibility: "team" | "global";
  ownerTeam: string;
  /** Other teams that may use it, typed as a list. */
  sharedWithTeams: string[];
  enabled: boolean;
}

/** One `<option>` value for a model: provider and id, which may hold any character but NUL. */
export function modelKey(provider: string, id: string): string {
  return `${provider}\u0000${id}`;
}

export function modelOfKey(key: string): { provider: string; id: string } | undefined {
  const at = key.indexOf("\u0000");
  return at < 0 ? undefined : { provider: key.slice(0, at), id: key.slice(at + 1) };
}

/** The form for a new agent, or for `agent` as it is now. */
export function draftOf(agent?: ConfiguredAgent): AgentDraft {
  const tools: Record<string, ServerUse> = {};
  for (const [server, allowed] of Object.entries(agent?.allowed_tools ?? {})) {
    if (allowed === false) continue;
    // CAIPE reads an empty list as every tool.
    const some = Array.isArray(allowed) && allowed.length > 0;
    tools[server] = { mode: some ? "some" : "all", only: some ? [...allowed] : [], askFirst: [] };
  }
  for (const [server, asks] of Object.entries(agent?.interrupt_on ?? {})) {
    const use = tools[server];
    if (use) use.askFirst = Object.entries(asks).flatMap(([tool, on]) => (on === false ? [] : [tool]));
  }
  return {
    id: agent ? agentIdOf(agent) : "",
    name: agent?.name ?? "",
    description: agent?.description ?? "",
    systemPrompt: agent?.system_prompt ?? "",
    model: agent?.model ? modelKey(agent.model.provider, agent.model.id) : "",
    tools,
    subagents: (agent?.subagents ?? []).map(subagentDraftOf),
    visibility: agent?.visibility === "global" ? "global" : "team",
    ownerTeam: agent?.owner_team_slug ?? agent?.owner_team ?? "",
    sharedWithTeams: agent?.shared_with_teams ?? [],
    enabled: agent?.enabled ?? true,
  };
}

function subagentDraftOf(ref: SubagentRef): SubagentDraft {
  return {
    name: ref.name,
    description: ref.description,
    kind: ref.url && !ref.agent_id ? "url" : "agent",
    agentId: ref.agent_id ?? "",
    url: ref.url ?? "",
  };
}

/**
 * The body CAIPE's API takes for the draft. What the form does not show of `before` (interrupt
 * namespaces that are no tool server, a tool's allowed decisions) is kept as it was.
 */
export function bodyOf(draft: AgentDraft, before?: ConfiguredAgent): AgentBody {
  const model = modelOfKey(draft.model) ?? { provider: "", id: "" };
  const allowed: Record<string, true | string[]> = {};
  const interrupt: InterruptOn = {};
  for (const [server, use] of Object.entries(before?.interrupt_on ?? {})) {
    if (!(server in draft.tools)) interrupt[server] = use;
  }
  for (const [server, use] of Object.entries(draft.tools)) {
    // CAIPE reads an empty list as every tool: "only these" with none picked is never sent as [].
    if (use.mode === "off" || (use.mode === "some" && use.only.length === 0)) continue;
    allowed[server] = use.mode === "all" ? true : use.only;
    if (use.askFirst.length === 0) continue;
    const kept = before?.interrupt_on?.[server] ?? {};
    interrupt[server] = Object.fromEntries(use.askFirst.map((tool) => [tool, kept[tool] || true]));
  }
  return {
    id: draft.id.trim(),
    name: draft.name.trim(),
    description: draft.description.trim(),
    system_prompt: draft.systemPrompt,
    model: { id: model.id, provider: model.provider },
    allowed_tools: allowed,
    subagents: draft.subagents.map((sub) => ({
      name: sub.name.trim(),
      description: sub.description.trim(),
      ...(sub.kind === "url" ? { url: sub.url.trim() } : { agent_id: sub.agentId }),
    })),
    interrupt_on: interrupt,
    visibility: draft.visibility,
    owner_team_slug: draft.ownerTeam.trim() || null,
    shared_with_teams: draft.sharedWithTeams,
    enabled: draft.enabled,
  };
}

/**
 * What the form itself refuses before sending, by field: "only these tools" with none picked, which
 * CAIPE's API would read as every tool (an empty list means all there).
 */
export function draftProblems(draft: AgentDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const [server, use] of Object.entries(draft.tools)) {
    if (use.mode === "some" && use.only.length === 0) {
      problems[`tools.${server}`] = "Pick at least one tool, or choose All its tools or Not used.";
    }
  }
  return problems;
}

/** A slug CAIPE would make of a name (its create form derives the id the same way). */
export function slugOf(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);
}

/** Names typed as a list: split on commas and blanks, empty ones dropped. */
export function namesOf(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** The models to offer: the host's, and the agent's own when the host no longer lists it. */
export function modelChoices(models: LlmModel[], draft: AgentDraft): Array<{ key: string; label: string }> {
  const choices = models.map((m) => ({
    key: modelKey(m.provider, m.model_id),
    label: `${m.name} (${m.provider})`,
  }));
  const own = modelOfKey(draft.model);
  if (own && !choices.some((choice) => choice.key === draft.model)) {
    choices.unshift({ key: draft.model, label: `${own.id} (${own.provider}, not offered by the host)` });
  }
  return choices;
}

/** The tool servers to show: the host's, and any the agent allows that the host does not list. */
export function serverChoices(servers: ToolServer[], draft: AgentDraft): ToolServer[] {
  const listed = new Set(servers.map((server) => server.id));
  const missing = Object.keys(draft.tools)
    .filter((id) => !listed.has(id))
    .map((id) => ({ id, name: id, description: "not listed by the host", enabled: false }));
  return [...servers, ...missing];
}

/** A subagent's fields the form shows one by one (agent_id is its "which agent" choice). */
export const SUBAGENT_FIELDS = ["name", "description", "agent_id", "url"];

/**
 * Where on the form an error the API names belongs: `model.id` and CAIPE's legacy `model_id` are
 * the model field, `allowed_tools.<server>…` and `interrupt_on.<server>…` that server's group,
 * `subagents[2].url` the third subagent's URL (`subagents[2]` the row); a file's `agents[4].` prefix
 * is dropped.
 */
export function formFieldOf(path: string): string {
  const plain = path
    .replace(/^(body\.|agents\[\d+\]\.)/, "")
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/^\./, "");
  const [head = "", second, third] = plain.split(".");
  if (head === "model" || head === "model_id" || head === "model_provider") return "model";
  if ((head === "allowed_tools" || head === "interrupt_on") && second) return `tools.${second}`;
  if (head === "subagents" && second !== undefined && /^\d+$/.test(second)) {
    return third && SUBAGENT_FIELDS.includes(third) ? `subagents.${second}.${third}` : `subagents.${second}`;
  }
  if (head === "owner_team" || head === "owner_team_slug") return "owner_team_slug";
  return head;
}

/** The API's field errors placed on the form's fields; `other` holds those with no field here. */
export function placeErrors(
  fields: Record<string, string>,
  shown: Set<string>,
): { byField: Record<string, string>; other: Array<{ field: string; message: string }> } {
  const byField: Record<string, string> = {};
  const other: Array<{ field: string; message: string }> = [];
  for (const [path, message] of Object.entries(fields)) {
    const field = formFieldOf(path);
    if (shown.has(field)) byField[field] = byField[field] ? `${byField[field]} ${message}` : message;
    else other.push({ field: path, message });
  }
  return { byField, other };
}
