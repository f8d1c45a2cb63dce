import { envPrefixFor } from "@switchboard/contract";
import type { SubagentConfig } from "@switchboard/delegation";
import type { AgentSpec, DefinitionProblem } from "../definitions/spec.js";

/**
 * Where each of an agent's subagents lives: `url` as given (any A2A agent, a Switchboard extension);
 * an `agent_id` that names another configured agent of this host, at its path on the host; any other
 * `agent_id`, a packaged Switchboard or CAIPE agent at `<AGENT>_AGENT_URL` (the supervisor's setting).
 * A subagent's card must carry the name it was configured by, when it is this host's own agent.
 */
export function subagentsFor(
  spec: AgentSpec,
  context: {
    env: NodeJS.ProcessEnv;
    /** The URL this host's agent `id` is reached at (loopback: no trip out and back in). */
    hostAgentUrl: (id: string) => string | undefined;
  },
): { configs: SubagentConfig[]; problems: DefinitionProblem[] } {
  const configs: SubagentConfig[] = [];
  const problems: DefinitionProblem[] = [];
  spec.subagents.forEach((subagent, index) => {
    const field = `subagents[${index}]`;
    const prefix = envPrefixFor(subagent.name);
    const wiring = {
      name: subagent.name,
      prefix,
      vendor: subagent.name.toLowerCase(),
      forwardUserToken: false,
    };
    if (subagent.agentId === spec.id) {
      problems.push({
        agent: spec.id,
        field: `${field}.agent_id`,
        message: "an agent cannot be its own subagent.",
      });
      return;
    }
    // The card names the agent by its id (this host's agents, packaged ones): checked when known.
    const cardName = subagent.agentId ? { cardName: subagent.agentId } : {};
    if (subagent.url) {
      configs.push({ ...wiring, ...cardName, url: subagent.url.replace(/\/+$/, "") });
      return;
    }
    const id = subagent.agentId ?? subagent.name;
    const own = context.hostAgentUrl(id);
    if (own) {
      configs.push({ ...wiring, cardName: id, url: own });
      return;
    }
    const variable = `${envPrefixFor(id)}_AGENT_URL`;
    const url = context.env[variable]?.trim();
    if (url) {
      configs.push({ ...wiring, cardName: id, url: url.replace(/\/+$/, "") });
      return;
    }
    problems.push({
      agent: spec.id,
      field: `${field}.agent_id`,
      message: `"${id}" is neither an agent of this host nor a known agent: configure it, set ${variable}, or give the subagent a url.`,
    });
  });
  return { configs, problems };
}
