import { withRevision } from "./agent-spec.js";
import { fieldPath } from "./expand.js";
import { BUILTIN_NAMESPACE } from "./rules.js";
import type { AgentSpec, DefinitionProblem, ModelSpec, ToolSourceSpec } from "./spec.js";

// The agents of the file and of the store checked together: what one agent refers to (tool
// sources, subagents) must exist, and no agents delegate to each other in a cycle. An agent that
// fails keeps its last good version when it had one, else it is left out; the others are untouched.

export interface Candidate {
  spec: AgentSpec;
  /** Where it is written, for field paths: `agents[2]`, `dynamic_agents["triage"]`. */
  at: string;
}

export interface ResolveInput {
  candidates: Candidate[];
  /** Ids present in the file or the store whose definition did not check: their last good is kept. */
  invalid: ReadonlySet<string>;
  toolSources: readonly ToolSourceSpec[];
  disabledSources: ReadonlySet<string>;
  models: readonly ModelSpec[];
  /** Each agent's last good version, from the previous resolve. */
  lastGood: ReadonlyMap<string, Candidate>;
}

export interface Resolved {
  agents: AgentSpec[];
  /** Each served agent's version and where it is written: the next resolve's last good. */
  good: Map<string, Candidate>;
  problems: DefinitionProblem[];
}

export function resolveAgents(input: ResolveInput): Resolved {
  const sources = new Map(input.toolSources.map((source) => [source.id, source]));
  const current = new Map<string, Candidate>();
  const usedLastGood = new Set<string>();
  const problems = new Map<string, DefinitionProblem[]>();
  const refuse = (id: string, found: DefinitionProblem[]) => {
    problems.set(id, [...(problems.get(id) ?? []), ...found]);
    const fallback = input.lastGood.get(id);
    if (fallback && !usedLastGood.has(id) && fallback.spec.source === current.get(id)?.spec.source) {
      usedLastGood.add(id);
      current.set(id, fallback);
    } else current.delete(id);
  };

  for (const candidate of input.candidates) current.set(candidate.spec.id, candidate);
  for (const id of input.invalid) {
    const fallback = input.lastGood.get(id);
    if (fallback && !current.has(id)) {
      usedLastGood.add(id);
      current.set(id, fallback);
    }
  }

  // Refusing one agent can break another (its subagent gone): check until nothing changes. Each
  // agent changes at most twice (to its last good, then out), so this ends.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [id, candidate] of current) {
      const found = referenceProblems(candidate, current, sources, input.disabledSources);
      if (found.length > 0) {
        refuse(id, found);
        changed = true;
      }
    }
    const cycle = findCycle(current);
    if (cycle) {
      const route = [...cycle, cycle[0]].join(" → ");
      for (const id of cycle) {
        const candidate = current.get(id) as Candidate;
        refuse(id, [
          {
            agent: id,
            field: fieldPath(candidate.at, "subagents"),
            message: `agents delegate to each other in a cycle (${route}), so no request would end: remove one of these subagents`,
          },
        ]);
      }
      changed = true;
    }
  }

  const all: DefinitionProblem[] = [];
  for (const [id, found] of problems) {
    const outcome = current.has(id)
      ? "its last good version is served meanwhile"
      : "it is left out until fixed";
    all.push(
      ...found.map((problem) => ({ ...problem, agent: id, message: `${problem.message} (${outcome})` })),
    );
  }
  const agents = [...current.values()].map((candidate) =>
    withRevision(candidate.spec, sources, input.models),
  );
  return { agents, good: current, problems: all };
}

/**
 * What would be wrong with `candidate` beside `others` (served agents, checked already): what it
 * refers to, and a cycle through it (the others have none). For an API write, before it is kept.
 */
export function candidateProblems(
  candidate: Candidate,
  others: readonly Candidate[],
  toolSources: readonly ToolSourceSpec[],
  disabled: ReadonlySet<string>,
): DefinitionProblem[] {
  const agents = new Map(others.map((other) => [other.spec.id, other]));
  agents.set(candidate.spec.id, candidate);
  const sources = new Map(toolSources.map((source) => [source.id, source]));
  const problems = referenceProblems(candidate, agents, sources, disabled);
  const found = findCycle(agents);
  if (found) {
    // Said from the agent being written: "leaf → parent → leaf".
    const start = Math.max(0, found.indexOf(candidate.spec.id));
    const cycle = [...found.slice(start), ...found.slice(0, start)];
    problems.push({
      agent: candidate.spec.id,
      field: fieldPath(candidate.at, "subagents"),
      message: `these agents would delegate to each other in a cycle (${[...cycle, cycle[0]].join(" → ")}), so no request would end: remove one of these subagents`,
    });
  }
  return problems;
}

/** What one agent refers to that is not there. */
function referenceProblems(
  candidate: Candidate,
  agents: ReadonlyMap<string, Candidate>,
  sources: ReadonlyMap<string, ToolSourceSpec>,
  disabled: ReadonlySet<string>,
): DefinitionProblem[] {
  const { spec, at } = candidate;
  const problems: DefinitionProblem[] = [];
  const toolsAt = fieldPath(at, "allowed_tools");
  for (const sourceId of Object.keys(spec.allowedTools)) {
    if (sources.has(sourceId)) continue;
    problems.push({
      agent: spec.id,
      field: fieldPath(toolsAt, sourceId),
      message: disabled.has(sourceId)
        ? `the MCP server "${sourceId}" is disabled (enabled: false): enable it, or remove it here`
        : `no mcp_servers or openapi_sources entry has the id "${sourceId}": add one, or remove it here`,
    });
  }
  for (const namespace of Object.keys(spec.interruptOn ?? {})) {
    if (namespace === BUILTIN_NAMESPACE || namespace in spec.allowedTools) continue;
    // A misspelt namespace would let the tools it meant run without asking.
    problems.push({
      agent: spec.id,
      field: fieldPath(fieldPath(at, "interrupt_on"), namespace),
      message: `"${namespace}" is not one of this agent's allowed_tools (nor builtin): use the tool source's id as in allowed_tools`,
    });
  }
  const names = new Set<string>();
  spec.subagents.forEach((ref, index) => {
    const refAt = fieldPath(fieldPath(at, "subagents"), index);
    if (names.has(ref.name)) {
      problems.push({
        agent: spec.id,
        field: fieldPath(refAt, "name"),
        message: `two subagents are named "${ref.name}": name each once`,
      });
    }
    names.add(ref.name);
    if (ref.agentId !== undefined && !agents.has(ref.agentId)) {
      problems.push({
        agent: spec.id,
        field: fieldPath(refAt, "agent_id"),
        message: `no configured agent has the id "${ref.agentId}": name one, or give url for any other A2A agent`,
      });
    }
  });
  return problems;
}

/** One cycle of delegation among configured agents (their ids in order), if there is one. */
function findCycle(agents: ReadonlyMap<string, Candidate>): string[] | undefined {
  const state = new Map<string, "visiting" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === "done") return undefined;
    if (state.get(id) === "visiting") return path.slice(path.indexOf(id));
    state.set(id, "visiting");
    path.push(id);
    for (const ref of agents.get(id)?.spec.subagents ?? []) {
      if (ref.agentId === undefined || !agents.has(ref.agentId)) continue;
      const cycle = visit(ref.agentId);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const id of agents.keys()) {
    const cycle = visit(id);
    if (cycle) return cycle;
  }
  return undefined;
}
