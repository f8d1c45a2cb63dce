import { isSwitchboardError, SwitchboardError } from "@switchboard/common";
import { envPrefixFor } from "@switchboard/contract";
import { LLM_VARIABLES, type LlmProvider, type LlmSettings, readLlmSettings } from "./env.js";

/** Where each provider names its model, the first one winning (the variables FACT_EXTRACTION_MODEL replaces). */
export const MODEL_VARIABLES: Readonly<Record<LlmProvider, readonly string[]>> = {
  openai: ["OPENAI_MODEL_NAME"],
  "azure-openai": ["AZURE_OPENAI_DEPLOYMENT"],
  "anthropic-claude": ["ANTHROPIC_MODEL_NAME"],
  "aws-bedrock": ["AWS_BEDROCK_MODEL_ID"],
  "google-gemini": ["GOOGLE_GEMINI_MODEL_NAME", "GOOGLE_MODEL_NAME"],
  ollama: ["OLLAMA_MODEL", "OLLAMA_MODEL_NAME"],
};

/**
 * The name that sets an LLM variable for one agent alone: the agent's env prefix (as in
 * `<AGENT>_AGENT_URL`) before it, e.g. `SUPERVISOR_LLM_PROVIDER`, `AWS_ANTHROPIC_MODEL_NAME`.
 */
export function agentVariable(agent: string, variable: string): string {
  return `${envPrefixFor(agent)}_${variable}`;
}

/** The environment as one agent's LLM sees it, and the per-agent variables that took effect. */
export interface AgentLlmEnv {
  env: NodeJS.ProcessEnv;
  /** The `<AGENT>_…` variables in effect (names only: their values may be keys). */
  overrides: string[];
}

/**
 * Every LLM variable as `agent` sees it: `<AGENT>_<NAME>`, when set and not empty, wins over `<NAME>`
 * (CAIPE runs each agent in its own container with its own env; one env file for the whole fleet
 * needs the prefix). So `SUPERVISOR_LLM_PROVIDER=openai` with `SUPERVISOR_OPENAI_MODEL_NAME=gpt-4o-mini`
 * gives the supervisor a small routing model while the others keep `LLM_PROVIDER` and its model; the
 * provider's shared key is used unless `<AGENT>_<KEY>` is set too.
 */
export function agentLlmEnv(env: NodeJS.ProcessEnv, agent: string): AgentLlmEnv {
  const own: NodeJS.ProcessEnv = { ...env };
  const overrides: string[] = [];
  for (const variable of LLM_VARIABLES) {
    const name = agentVariable(agent, variable);
    const value = env[name];
    if (value === undefined || value.trim() === "") continue;
    own[variable] = value;
    overrides.push(name);
  }
  return { env: own, overrides };
}

/**
 * {@link readLlmSettings} for one agent, with its `<AGENT>_…` overrides applied (see
 * {@link agentLlmEnv}); without `agent`, the shared settings. A configuration error names the
 * per-agent variables in effect, so the user knows which line to fix.
 */
export function readAgentLlmSettings(env: NodeJS.ProcessEnv, agent?: string): LlmSettings {
  if (!agent) return readLlmSettings(env);
  const resolved = agentLlmEnv(env, agent);
  try {
    return readLlmSettings(resolved.env);
  } catch (error) {
    if (!isSwitchboardError(error) || resolved.overrides.length === 0) throw error;
    throw new SwitchboardError(
      error.code,
      error.category,
      `${error.message} (The ${agent} agent has its own ${resolved.overrides.join(", ")}: ` +
        `${agentVariable(agent, "<NAME>")} sets any LLM variable for it alone.)`,
      { cause: error },
    );
  }
}
