import { LLM_PROVIDERS } from "@switchboard/llm";
import { z } from "zod";
import { fieldPath } from "./expand.js";
import {
  agentIdProblem,
  LIMITS,
  SUBAGENT_NAME,
  TOOL_NAME,
  TOOL_NAME_RULE,
  TOOL_SOURCE_ID,
  TOOL_SOURCE_ID_RULE,
  urlProblem,
} from "./rules.js";
import type { DefinitionProblem } from "./spec.js";

// One dynamic agent in CAIPE's names (ui/src/types/dynamic-agent.ts, dynamic_agents/models.py), as
// the file, the API and the `dynamic_agents` collection write it, checked and brought to one shape.

const DECISIONS = ["approve", "edit", "reject"] as const;

const bounded = (max: number, what: string) => z.string().max(max, `${what}: at most ${max} characters`);

const toolNames = z
  .array(z.string().regex(TOOL_NAME, TOOL_NAME_RULE))
  .max(LIMITS.toolNames, `at most ${LIMITS.toolNames} tool names`);

const provider = z.enum(LLM_PROVIDERS, {
  error: `use one of CAIPE's providers: ${LLM_PROVIDERS.join(", ")}`,
});

const model = z.strictObject({
  id: z.string().trim().min(1, "give the model's id, as its provider names it").max(LIMITS.name),
  provider,
});

const subagent = z
  .object({
    agent_id: z.string().optional(),
    name: z
      .string()
      .regex(SUBAGENT_NAME, "use 1-64 letters, digits, '_' or '-' (the name the model delegates by)"),
    description: bounded(LIMITS.description, "description").default(""),
    /** A Switchboard extension: any A2A agent (a packaged Switchboard agent, CAIPE's, a third party's). */
    url: bounded(LIMITS.url, "url").optional(),
  })
  .superRefine((ref, ctx) => {
    if ((ref.agent_id === undefined) === (ref.url === undefined)) {
      ctx.addIssue({
        code: "custom",
        message: "give agent_id (another configured agent) or url (any A2A agent), one of the two",
      });
    }
    if (ref.agent_id !== undefined) {
      const problem = agentIdProblem(ref.agent_id);
      if (problem) ctx.addIssue({ code: "custom", path: ["agent_id"], message: problem });
    }
    if (ref.url !== undefined) {
      const problem = urlProblem(ref.url);
      if (problem) ctx.addIssue({ code: "custom", path: ["url"], message: problem });
    }
  });

const interruptTool = z.union(
  [
    z.boolean(),
    z.strictObject({
      allowed_decisions: z
        .array(z.enum(DECISIONS, { error: `use ${DECISIONS.join(", ")}` }))
        .min(1, "list at least one decision")
        .default([...DECISIONS]),
    }),
  ],
  { error: `use true (ask first), false, or { allowed_decisions: [${DECISIONS.join(", ")}] }` },
);

const atMost = (count: number, what: string) => (record: Record<string, unknown>) =>
  Object.keys(record).length <= count || `at most ${count} ${what}`;

/** The fields Switchboard reads; CAIPE's others are kept as written and named as unused. */
const agentFields = z.object({
  name: z.string().trim().min(1, "give the agent a name").max(LIMITS.name).optional(),
  description: bounded(LIMITS.description, "description").nullish(),
  system_prompt: bounded(LIMITS.systemPrompt, "system_prompt").optional(),
  model: model.optional(),
  model_id: z.string().trim().min(1).max(LIMITS.name).optional(),
  model_provider: z.string().trim().min(1).max(LIMITS.name).optional(),
  allowed_tools: z
    .record(
      z.string().regex(TOOL_SOURCE_ID, TOOL_SOURCE_ID_RULE),
      z.union([z.boolean(), toolNames], { error: "use true (every tool), false, or a list of tool names" }),
    )
    .refine(atMost(LIMITS.allowedSources, "tool sources"))
    .optional(),
  visibility: z.enum(["team", "global", "private"], { error: "use team or global" }).optional(),
  owner_team: bounded(LIMITS.teamName, "owner_team").nullish(),
  owner_team_slug: bounded(LIMITS.teamName, "owner_team_slug").nullish(),
  shared_with_teams: z
    .array(z.string().trim().min(1).max(LIMITS.teamName))
    .max(LIMITS.teams, `at most ${LIMITS.teams} teams`)
    .nullish(),
  subagents: z.array(subagent).max(LIMITS.subagents, `at most ${LIMITS.subagents} subagents`).nullish(),
  interrupt_on: z
    .record(
      z.string().regex(TOOL_SOURCE_ID, TOOL_SOURCE_ID_RULE),
      z
        .record(
          z.string().regex(/^(\*|[A-Za-z0-9_][A-Za-z0-9_-]{0,127})$/, `${TOOL_NAME_RULE}, or *`),
          interruptTool,
        )
        .refine(atMost(LIMITS.toolNames, "tools")),
    )
    .refine(atMost(LIMITS.allowedSources + 1, "namespaces"))
    .nullish(),
  enabled: z.boolean().optional(),
});

/** CAIPE's agent fields Switchboard keeps (as written) but does not act on, and why. */
export const UNUSED_AGENT_FIELDS: Record<string, string> = {
  skills: "CAIPE skills have no home in Switchboard",
  builtin_tools:
    "CAIPE's built-in tools (fetch_url, curl, wait, …) are not offered; give tools through mcp_servers or openapi_sources",
  datasource_ids: "CAIPE's RAG data sources are not searched",
  rag_collection_ids: "CAIPE's RAG collections are not searched",
  ui: "the web chat has no per-agent themes",
  features: "CAIPE's middleware stack is not run; Switchboard's own limits apply",
  backend: "CAIPE's filesystem backends are not used; conversations are kept in checkpoints_<id>",
  last_review: "CAIPE's AI review is not run",
  owner_team_id: "teams are named by slug (owner_team)",
  config_import_adopted: "CAIPE's import adoption does not apply",
};

/** Fields the server sets: ignored in an API body, as CAIPE's API does. */
export const SERVER_FIELDS = new Set([
  "_id",
  "owner_id",
  "owner_subject",
  "is_system",
  "config_driven",
  "created_at",
  "updated_at",
]);

/** Every agent field CAIPE or Switchboard defines. */
export const AGENT_FIELDS: ReadonlySet<string> = new Set([
  "id",
  ...Object.keys(agentFields.shape),
  ...Object.keys(UNUSED_AGENT_FIELDS),
  ...SERVER_FIELDS,
]);

/** An agent as Switchboard keeps it in `dynamic_agents`, CAIPE's document shape (without _id and times). */
export interface AgentFields {
  name: string;
  description: string;
  system_prompt: string;
  allowed_tools: Record<string, string[] | boolean>;
  model: { id: string; provider: string };
  visibility: "team" | "global";
  owner_team_slug?: string;
  shared_with_teams?: string[];
  subagents: Array<{ agent_id?: string; name: string; description: string; url?: string }>;
  interrupt_on?: Record<string, Record<string, boolean | { allowed_decisions: string[] }>>;
  enabled: boolean;
  /** CAIPE's fields Switchboard does not act on, as written. */
  extra: Record<string, unknown>;
}

export type AgentCheck =
  | { ok: true; id: string; fields: AgentFields }
  | { ok: false; id?: string; problems: DefinitionProblem[] };

export interface AgentCheckOptions {
  /** Where the agent is, for field paths: `agents[2]`, or "" for an API body. */
  at: string;
  /** CAIPE's default visibility: global for the file (its seed), team for the API. */
  defaultVisibility: "team" | "global";
  /** The id when it is not in the object (an API path, a stored `_id`). */
  id?: string;
}

/**
 * Checks one agent as written (the file's entry after `${VAR}` expansion, an API body, a stored
 * document): each problem names its field and the fix. Legacy `model_id`/`model_provider` become
 * `model`, legacy `private` visibility becomes `team`, `owner_team` becomes `owner_team_slug`.
 */
export function checkAgent(raw: unknown, options: AgentCheckOptions): AgentCheck {
  const { at } = options;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    return {
      ok: false,
      problems: [{ field: at || "body", message: "an agent is an object of CAIPE's fields" }],
    };
  }
  const record = raw as Record<string, unknown>;
  const given = options.id ?? record.id;
  const problems: DefinitionProblem[] = [];
  let id: string | undefined;
  if (typeof given !== "string") {
    problems.push({
      field: fieldPath(at, "id"),
      message: "give the agent an id (its name in URLs, policies and collections)",
    });
  } else {
    const problem = agentIdProblem(given);
    if (problem) problems.push({ field: fieldPath(at, "id"), message: problem });
    else id = given;
  }
  const parsed = agentFields.safeParse(record);
  if (!parsed.success) problems.push(...zodProblems(parsed.error, at));
  const data = parsed.data;
  const chosenModel = data ? modelOf(data, at, problems) : undefined;
  if (problems.length > 0 || !data || !chosenModel || !id) {
    return {
      ok: false,
      ...(id ? { id } : {}),
      problems: problems.map((problem) => ({ ...problem, ...(id ? { agent: id } : {}) })),
    };
  }
  const owner = (data.owner_team_slug ?? data.owner_team)?.trim() || undefined;
  const shared = (data.shared_with_teams ?? []).filter((team) => team !== owner);
  const extra = Object.fromEntries(Object.entries(record).filter(([key]) => key in UNUSED_AGENT_FIELDS));
  const fields: AgentFields = {
    name: data.name ?? id,
    description: data.description ?? "",
    system_prompt: data.system_prompt ?? "",
    allowed_tools: data.allowed_tools ?? {},
    model: chosenModel,
    visibility:
      data.visibility === "global" ? "global" : data.visibility ? "team" : options.defaultVisibility,
    ...(owner ? { owner_team_slug: owner } : {}),
    ...(shared.length > 0 ? { shared_with_teams: [...new Set(shared)] } : {}),
    subagents: (data.subagents ?? []).map((ref) => ({
      ...(ref.agent_id !== undefined ? { agent_id: ref.agent_id } : {}),
      name: ref.name,
      description: ref.description,
      ...(ref.url !== undefined ? { url: ref.url } : {}),
    })),
    ...(data.interrupt_on ? { interrupt_on: data.interrupt_on } : {}),
    enabled: data.enabled ?? true,
    extra,
  };
  return { ok: true, id, fields };
}

/** `model: {id, provider}`, else CAIPE's legacy `model_id` and `model_provider`. */
function modelOf(
  data: z.output<typeof agentFields>,
  at: string,
  problems: DefinitionProblem[],
): AgentFields["model"] | undefined {
  if (data.model) return data.model;
  if (data.model_id === undefined) {
    problems.push({
      field: fieldPath(at, "model"),
      message:
        "give the agent a model: model: {id, provider} (or CAIPE's legacy model_id and model_provider)",
    });
    return undefined;
  }
  const checked = provider.safeParse(data.model_provider);
  if (!checked.success) {
    problems.push({
      field: fieldPath(at, "model_provider"),
      message: `${data.model_provider === undefined ? "missing: " : ""}use one of CAIPE's providers: ${LLM_PROVIDERS.join(", ")}`,
    });
    return undefined;
  }
  return { id: data.model_id, provider: checked.data };
}

/** Zod's issues as problems, their paths under `at`. */
export function zodProblems(error: z.ZodError, at: string): DefinitionProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.reduce<string>(
      (path, key) => fieldPath(path, typeof key === "number" ? key : String(key)),
      at,
    );
    return { field: field || "body", message: messageOf(issue) };
  });
}

function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type") {
    const received = /received (\w+)$/.exec(issue.message)?.[1];
    const expected =
      issue.expected === "object" || issue.expected === "array"
        ? `an ${issue.expected}`
        : `a ${issue.expected}`;
    if (received === "undefined") return `missing: give ${expected}`;
    return received
      ? `expected ${expected}, not ${received === "array" || received === "object" ? `an ${received}` : `a ${received}`}`
      : `expected ${expected}`;
  }
  if (issue.code === "invalid_key")
    return `this name cannot be used: ${issue.issues[0]?.message ?? issue.message}`;
  return issue.message;
}
