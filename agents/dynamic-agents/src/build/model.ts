import { agentVariable, MODEL_VARIABLES } from "@switchboard/llm";
import { MODEL_PROVIDER_RULE, MODEL_PROVIDERS, type ModelProvider } from "../definitions/rules.js";
import type { AgentSpec, DefinitionProblem } from "../definitions/spec.js";

/**
 * The environment one configured agent's model is made from: the runtime's LLM settings with the
 * spec's provider (CAIPE's names are Switchboard's `LLM_PROVIDER` values) and its model id in that
 * provider's model variable (`offline` needs neither key nor model). The provider's keys and
 * endpoints stay the host's. The spec's choice wins over any `<AGENT>_LLM_PROVIDER` or model override.
 */
export function modelEnv(spec: AgentSpec, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv | DefinitionProblem {
  const provider = spec.model.provider.trim().toLowerCase();
  if (!isProvider(provider)) {
    return {
      agent: spec.id,
      field: "model.provider",
      message: `"${spec.model.provider}" is not a provider Switchboard speaks: ${MODEL_PROVIDER_RULE}.`,
    };
  }
  if (provider === "offline") return withoutOverrides(spec, { ...env, LLM_PROVIDER: "offline" }, []);
  const variables = MODEL_VARIABLES[provider];
  return withoutOverrides(
    spec,
    { ...env, LLM_PROVIDER: provider, [variables[0] as string]: spec.model.id },
    variables,
  );
}

function withoutOverrides(
  spec: AgentSpec,
  own: NodeJS.ProcessEnv,
  modelVariables: readonly string[],
): NodeJS.ProcessEnv {
  for (const name of ["LLM_PROVIDER", ...modelVariables]) delete own[agentVariable(spec.id, name)];
  return own;
}

function isProvider(value: string): value is ModelProvider {
  return (MODEL_PROVIDERS as readonly string[]).includes(value);
}
