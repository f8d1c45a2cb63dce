import {
  type AgentDefinition,
  type AgentTool,
  contextSummarizer,
  type Principal,
} from "@switchboard/agent-runtime";
import {
  buildDelegatingGraph,
  HopTelemetry,
  Roster,
  readHopCredentials,
  type SubagentConfig,
  subagentsPrompt,
} from "@switchboard/delegation";
import type { AgentSpec } from "../definitions/spec.js";

/**
 * A configured agent as the runtime serves any agent: named by its id (its collections, metrics,
 * policies and audit are `<id>`'s), its card from its name and description, its tools given. With
 * subagents it runs the supervisor's delegating graph: its own prompt, then the subagents it may
 * reach, and its own tools beside the hops, behind the same guard.
 */
export function agentDefinition(
  spec: AgentSpec,
  tools: AgentTool[],
  subagents: SubagentConfig[],
  /** Whether `principal` may reach this host's agent `id` by its visibility (a team's: its members). */
  hostReach: (id: string, principal: Principal) => boolean = () => true,
): AgentDefinition {
  const definition: AgentDefinition = {
    name: spec.id,
    title: spec.name,
    description: spec.description || spec.name,
    systemPrompt: spec.systemPrompt,
    skills: [
      {
        id: spec.id,
        name: spec.name,
        description: spec.description || spec.name,
        tags: ["configured"],
        examples: [],
      },
    ],
    tools: () => tools,
  };
  if (subagents.length === 0) return definition;
  return {
    ...definition,
    tools: () => [],
    graph: ({
      model,
      context,
      checkpointer,
      agent,
      env,
      logger,
      metrics,
      onClose,
      mayReach,
      principalOf,
      memories,
      guardTools,
    }) => {
      const roster = new Roster(subagents, logger, { credentials: readHopCredentials(env, agent) });
      // A subagent that is a team's agent of this host is for its members alone, as the host serves
      // it: for anyone else it is not in the prompt nor called (its card is read with the directory token).
      const hostIds = new Map(
        subagents.flatMap((config) =>
          config.directory ? [[config.name, config.cardName ?? config.name]] : [],
        ),
      );
      const reaches = (name: string, caller: Parameters<typeof mayReach>[1]) => {
        const id = hostIds.get(name);
        return mayReach(name, caller) && (id === undefined || hostReach(id, principalOf(caller)));
      };
      roster.start();
      onClose(() => roster.stop());
      return buildDelegatingGraph(
        model,
        {
          roster,
          telemetry: new HopTelemetry(metrics),
          mayReach: reaches,
          ...(memories ? { memories } : {}),
          ownTools: guardTools([...tools, ...(memories?.tools ?? [])]),
          prompt: (current, reach) => `${spec.systemPrompt}\n\n${subagentsPrompt(current, reach)}`,
        },
        checkpointer,
        context ? { summarize: contextSummarizer(model, context, logger), budget: context } : undefined,
      );
    },
  };
}
