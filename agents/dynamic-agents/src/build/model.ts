import { agentVariable, LLM_PROVIDERS, type LlmProvider, MODEL_VARIABLES } from "@switchboard/llm";
import type { AgentSpec, DefinitionProblem } from "../definitions/spec.js";

/**
 * The environment one configured agent's model is made from: the runtime's LLM settings with the
 * spec's provider (CAIPE's names are Switchboard's `LLM_PROVIDER` values) and its model id in that
 * provider's model variable. The provider's keys and endpoints stay the host's (or the agent's own
 * `<AGENT>_…` variables). The spec's choice wins over any `<AGENT>_LLM_PROVIDER` or model override.
 */
export function modelEnv(spec: AgentSpec, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv | DefinitionProblem {
  const provider = spec.model.provider.trim().toLowerCase();
  if (!isProvider(provider)) {
    return {
      agent: spec.id,
      field: "model.provider",
      message: `"${spec.model.provider}" is not a provider Switchboard speaks: use one of ${LLM_PROVIDERS.join(", ")}.`,
    };
  }
  const variable = MODEL_VARIABLES[provider][0] as string;
  const own: NodeJS.ProcessEnv = { ...env, LLM_PROVIDER: provider, [variable]: spec.model.id };
  for (const name of ["LLM_PROVIDER", ...MODEL_VARIABLES[provider]]) delete own[agentVariable(spec.id, name)];
  return own;
}

function isProvider(value: string): value is LlmProvider {
  return (LLM_PROVIDERS as readonly string[]).includes(value);
}
