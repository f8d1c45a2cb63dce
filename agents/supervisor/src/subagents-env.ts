import { agentUrlVariableFor, enableVariableFor, envPrefixFor, isFeatureFlag } from "@switchboard/contract";
import type { SubagentConfig } from "@switchboard/delegation";

export interface SubagentsFromEnv {
  agents: SubagentConfig[];
  /** Enabled agents that cannot be used, each with the reason and the fix. */
  problems: string[];
}

const ENABLED = /^ENABLE_([A-Z0-9_]+)$/;

/**
 * Reads every `ENABLE_<AGENT>=true` with `<AGENT>_AGENT_URL` (or `<AGENT>_AGENT_HOST` and
 * `<AGENT>_AGENT_PORT`), for any agent name, as CAIPE's supervisor does; with what the operator
 * trusts it with (the vendor of the linked tokens it takes, the user's own token or not).
 */
export function readSubagents(env: NodeJS.ProcessEnv): SubagentsFromEnv {
  const agents: SubagentConfig[] = [];
  const problems: string[] = [];
  const forwardTo = new Set(
    (env.AUTH_FORWARD_USER_TOKEN_TO ?? "")
      .split(",")
      .map((name) => envPrefixFor(name).toLowerCase())
      .filter(Boolean),
  );
  for (const [key, value] of Object.entries(env)) {
    const prefix = ENABLED.exec(key)?.[1];
    // ENABLE_TRACING, ENABLE_RAG and the like turn features on (or name CAIPE parts): not agents.
    if (!prefix || isFeatureFlag(key) || value?.trim().toLowerCase() !== "true") continue;
    const url = env[`${prefix}_AGENT_URL`]?.trim();
    const host = env[`${prefix}_AGENT_HOST`]?.trim();
    const port = env[`${prefix}_AGENT_PORT`]?.trim();
    const name = prefix.toLowerCase();
    const wiring = {
      name,
      prefix,
      vendor: env[`${prefix}_AGENT_LINKED_VENDOR`]?.trim().toLowerCase() || name,
      forwardUserToken: forwardTo.has(name),
    };
    if (url) agents.push({ ...wiring, url: url.replace(/\/+$/, "") });
    else if (host && port) agents.push({ ...wiring, url: `http://${host}:${port}` });
    else
      problems.push(
        `${key}=true but neither ${prefix}_AGENT_URL nor ${prefix}_AGENT_HOST and ${prefix}_AGENT_PORT is set.`,
      );
  }
  agents.sort((a, b) => a.name.localeCompare(b.name));
  for (const name of forwardTo) {
    if (!agents.some((agent) => agent.name === name))
      problems.push(`AUTH_FORWARD_USER_TOKEN_TO names ${name}, which is not an enabled agent.`);
  }
  return { agents, problems };
}

/** What the supervisor tells its model of an agent it has not got: the variables that add it. */
export function howToEnable(name: string): string | undefined {
  // A name with no letters or digits has no variables to suggest.
  if (!envPrefixFor(name)) return undefined;
  return `To add one, set ${enableVariableFor(name)}=true and ${agentUrlVariableFor(name)}.`;
}
