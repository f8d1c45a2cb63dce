import { DYNAMIC_AGENTS, envPrefixFor } from "@switchboard/contract";
import type { SubagentConfig } from "@switchboard/delegation";
import type { AgentSpec, DefinitionProblem } from "../definitions/spec.js";

/**
 * Where each of an agent's subagents lives: an `agent_id` names another configured agent of this
 * host, reached at its path here (its card carries that id); a `url` (a Switchboard extension) is any
 * A2A agent, a packaged Switchboard agent, CAIPE's or a third party's, whose card must carry the
 * name the subagent is given (the name the model delegates by), as the supervisor checks its own.
 */
export function subagentsFor(
  spec: AgentSpec,
  context: {
    /** The URL this host's agent `id` is reached at (loopback: no trip out and back in), if it serves one. */
    hostAgentUrl: (id: string) => string | undefined;
  },
): { configs: SubagentConfig[]; problems: DefinitionProblem[] } {
  const configs: SubagentConfig[] = [];
  const problems: DefinitionProblem[] = [];
  spec.subagents.forEach((subagent, index) => {
    const field = `subagents[${index}]`;
    const wiring = {
      name: subagent.name,
      prefix: envPrefixFor(subagent.name),
      // Linked tokens are never passed on to a configured agent's subagents: it takes none itself.
      vendor: "",
      forwardUserToken: false,
      configuredBy: { enabled: `${spec.id}'s ${field}`, url: `${spec.id}'s ${field}` },
    };
    if (subagent.url) {
      configs.push({ ...wiring, url: subagent.url.replace(/\/+$/, "") });
      return;
    }
    const id = subagent.agentId ?? subagent.name;
    const own = id === spec.id ? undefined : context.hostAgentUrl(id);
    if (own) {
      // Its card read as the supervisor reads it (a team's agent shows it to no one else).
      configs.push({ ...wiring, cardName: id, url: own, directory: DYNAMIC_AGENTS });
      return;
    }
    problems.push({
      agent: spec.id,
      field: `${field}.agent_id`,
      message: `"${id}" is not another agent this host serves: name one, or give url for any other A2A agent.`,
    });
  });
  return { configs, problems };
}
