import { createHash } from "node:crypto";
import type { AgentFields } from "./caipe-agent.js";
import type { AgentSpec, ModelSpec, ToolSourceSpec } from "./spec.js";

/** A checked agent as the spec the host builds from (its revision is set by `withRevision`). */
export function specOf(id: string, fields: AgentFields, source: AgentSpec["source"]): AgentSpec {
  const allowedTools: AgentSpec["allowedTools"] = {};
  for (const [sourceId, allowed] of Object.entries(fields.allowed_tools)) {
    if (allowed === false) continue;
    // CAIPE: true is every tool, and so is an empty list (its legacy spelling).
    allowedTools[sourceId] = allowed === true || allowed.length === 0 ? true : [...new Set(allowed)];
  }
  const interruptOn = interruptOf(fields.interrupt_on);
  return {
    id,
    name: fields.name,
    description: fields.description,
    systemPrompt: fields.system_prompt,
    model: { ...fields.model },
    allowedTools,
    ...(interruptOn ? { interruptOn } : {}),
    subagents: fields.subagents.map((ref) => ({
      name: ref.name,
      description: ref.description,
      ...(ref.agent_id !== undefined ? { agentId: ref.agent_id } : {}),
      ...(ref.url !== undefined ? { url: ref.url } : {}),
    })),
    visibility: fields.visibility,
    ...(fields.owner_team_slug ? { ownerTeam: fields.owner_team_slug } : {}),
    sharedWithTeams: fields.shared_with_teams ?? [],
    enabled: fields.enabled,
    source,
    revision: "",
  };
}

/** CAIPE's interrupt_on without the tools set to false (they do not ask). */
function interruptOf(interruptOn: AgentFields["interrupt_on"]): AgentSpec["interruptOn"] {
  if (!interruptOn) return undefined;
  const result: NonNullable<AgentSpec["interruptOn"]> = {};
  for (const [namespace, tools] of Object.entries(interruptOn)) {
    const asking = Object.entries(tools).filter(([, value]) => value !== false) as Array<
      [string, true | { allowed_decisions: string[] }]
    >;
    if (asking.length > 0) result[namespace] = Object.fromEntries(asking);
  }
  return result;
}

/**
 * The spec with its revision: a hash of the spec and of what it is built from besides (the tool
 * sources it allows, its model's entry), so a changed server or model rebuilds the agents using it
 * and nothing else.
 */
export function withRevision(
  spec: AgentSpec,
  sources: ReadonlyMap<string, ToolSourceSpec>,
  models: readonly ModelSpec[],
): AgentSpec {
  const { revision: _old, ...rest } = spec;
  const used = Object.keys(spec.allowedTools)
    .sort()
    .map((id) => sources.get(id));
  const model = models.find((one) => one.modelId === spec.model.id && one.provider === spec.model.provider);
  const hash = createHash("sha256")
    .update(canonical({ spec: rest, used, model }))
    .digest("hex");
  return { ...spec, revision: hash.slice(0, 16) };
}

/** JSON with keys in order, so equal values hash equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, one]) => one !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, one]) => `${JSON.stringify(key)}:${canonical(one)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
