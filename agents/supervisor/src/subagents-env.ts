import { isFeatureFlag } from "@switchboard/contract";
/** A subagent the supervisor was told about: ENABLE_<AGENT>=true plus where it lives. */
export interface SubagentConfig {
  /** Lowercase name from the variable: ENABLE_JIRA → jira, ENABLE_MY_TOOL → my_tool. */
  name: string;
  /** The variable prefix, e.g. JIRA; named in log lines and messages. */
  prefix: string;
  url: string;
}

export interface SubagentsFromEnv {
  agents: SubagentConfig[];
  /** Enabled agents that cannot be used, each with the reason and the fix. */
  problems: string[];
}

const ENABLED = /^ENABLE_([A-Z0-9_]+)$/;

/**
 * Reads every `ENABLE_<AGENT>=true` with `<AGENT>_AGENT_URL` (or `<AGENT>_AGENT_HOST` and
 * `<AGENT>_AGENT_PORT`), for any agent name, as CAIPE's supervisor does.
 */
export function readSubagents(env: NodeJS.ProcessEnv): SubagentsFromEnv {
  const agents: SubagentConfig[] = [];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    const prefix = ENABLED.exec(key)?.[1];
    // ENABLE_TRACING, ENABLE_RAG and the like turn features on (or name CAIPE parts): not agents.
    if (!prefix || isFeatureFlag(key) || value?.trim().toLowerCase() !== "true") continue;
    const url = env[`${prefix}_AGENT_URL`]?.trim();
    const host = env[`${prefix}_AGENT_HOST`]?.trim();
    const port = env[`${prefix}_AGENT_PORT`]?.trim();
    if (url) agents.push({ name: prefix.toLowerCase(), prefix, url: url.replace(/\/+$/, "") });
    else if (host && port) agents.push({ name: prefix.toLowerCase(), prefix, url: `http://${host}:${port}` });
    else
      problems.push(
        `${key}=true but neither ${prefix}_AGENT_URL nor ${prefix}_AGENT_HOST and ${prefix}_AGENT_PORT is set.`,
      );
  }
  agents.sort((a, b) => a.name.localeCompare(b.name));
  return { agents, problems };
}
