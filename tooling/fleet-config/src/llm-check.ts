import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { envPrefixFor, listAgentPackages, listHostPackages } from "@switchboard/contract";
import {
  agentLlmEnv,
  agentVariable,
  LLM_PROVIDERS,
  LLM_VARIABLES,
  MODEL_VARIABLES,
  readAgentLlmSettings,
} from "@switchboard/llm";
import { parse } from "yaml";
import { CHART_VALUES, chartKeyFor } from "./chart.js";
import { COMPOSE_FILE, environmentOf, readComposeFile } from "./compose.js";
import { readEnvExample } from "./env-example.js";

/** The variables that say a per-agent LLM override is meant: `<AGENT>_LLM_PROVIDER` and the model names. */
const MARKERS = ["LLM_PROVIDER", ...new Set(Object.values(MODEL_VARIABLES).flat())];
const SHARED = new Set<string>(LLM_VARIABLES);
/** A value that stands for a secret kept elsewhere (a chart Secret key, a ${VAR} reference). */
const SET_ELSEWHERE = "(set elsewhere)";

/** The agent whose LLM variable `name` sets (`SUPERVISOR_LLM_PROVIDER` → supervisor), if any. */
export function agentLlmVariable(name: string, agents: readonly string[]): string | undefined {
  if (SHARED.has(name)) return undefined;
  return agents.find((agent) => LLM_VARIABLES.some((variable) => name === agentVariable(agent, variable)));
}

interface Scope {
  where: string;
  /** The agents this scope's settings reach (one component, or all). */
  agents: string[];
  env: Record<string, string>;
  /** Whether the provider's credentials can be judged here (not when an unseen env file fills them). */
  complete: boolean;
}

/**
 * Per-agent LLM overrides (`<AGENT>_LLM_PROVIDER`, `<AGENT>_<MODEL VARIABLE>`, any `<AGENT>_<LLM
 * VARIABLE>`) in the fleet files: each names an agent package, each provider is one @switchboard/llm
 * knows, and, where the file holds the whole picture (.env.example, the chart), the agent's provider
 * gets what it needs (its key, model, region…), shared or the agent's own. docker-compose.dev.yaml's
 * credentials come from the user's .env, which is not checked here.
 */
export function checkLlmOverrides(repoRoot: string): string[] {
  const agents = listAgentPackages(repoRoot).map((agent) => agent.name);
  const prefixes = agents.map((agent) => envPrefixFor(agent));
  const problems: string[] = [];
  const example = readEnvExample(repoRoot);
  if (!example.mentioned.has("AGENT_LLM_PROVIDER"))
    problems.push(".env.example: document <AGENT>_LLM_PROVIDER (each agent's own LLM settings).");

  for (const scope of scopes(repoRoot, agents)) {
    for (const [name, value] of Object.entries(scope.env)) {
      const marker = MARKERS.find((candidate) => name.endsWith(`_${candidate}`));
      if (marker && !SHARED.has(name)) {
        const prefix = name.slice(0, -marker.length - 1);
        if (!prefixes.includes(prefix)) {
          problems.push(
            `${scope.where}: ${name} sets ${marker} for an agent "${prefix}" that does not exist: ` +
              `use <AGENT>_${marker} with <AGENT> one of ${prefixes.join(", ")}.`,
          );
          continue;
        }
      }
      if ((name === "LLM_PROVIDER" || marker === "LLM_PROVIDER") && value && !value.includes("${")) {
        const provider = value.trim().toLowerCase();
        if (provider !== "offline" && !LLM_PROVIDERS.some((known) => known === provider))
          problems.push(
            `${scope.where}: ${name}=${value} is no LLM provider: use one of ${LLM_PROVIDERS.join(", ")} (or offline).`,
          );
      }
    }
    if (!scope.complete) continue;
    for (const agent of scope.agents) {
      if (agentLlmEnv(scope.env, agent).overrides.length === 0) continue;
      const provider = agentLlmEnv(scope.env, agent).env.LLM_PROVIDER?.trim().toLowerCase() ?? "";
      if (provider !== "offline" && !LLM_PROVIDERS.some((known) => known === provider)) continue;
      try {
        readAgentLlmSettings(scope.env, agent);
      } catch (error) {
        problems.push(`${scope.where}: the ${agent} agent's LLM: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}

/** Each place the fleet files set variables, flattened to NAME → value (empty means unset). */
function scopes(repoRoot: string, agents: string[]): Scope[] {
  const found: Scope[] = [];
  const example = readEnvExample(repoRoot);
  found.push({
    where: ".env.example",
    agents,
    env: Object.fromEntries([...example.variables].map(([name, { value }]) => [name, unquoted(value)])),
    complete: true,
  });
  try {
    for (const [service, definition] of Object.entries(readComposeFile(repoRoot).document.services ?? {})) {
      found.push({
        where: `${COMPOSE_FILE} ${service}`,
        agents,
        env: Object.fromEntries(environmentOf(definition)),
        complete: false,
      });
    }
  } catch {
    // checkCompose reports an unreadable compose file.
  }
  const chartPath = join(repoRoot, CHART_VALUES);
  if (!existsSync(chartPath)) return found;
  let values: ChartValues;
  try {
    values = (parse(readFileSync(chartPath, "utf8")) ?? {}) as ChartValues;
  } catch {
    return found; // checkChart reports unreadable values.
  }
  const config = strings(values.config);
  const shared = values.secrets?.sharedKeys ?? [];
  const components: Array<[string, string, ChartComponent | null | undefined]> = [
    ["supervisor", "supervisor", values.supervisor],
    ...Object.entries(values.agents ?? {}).map(
      ([agent, entry]) => [agent, `agents.${agent}`, entry] as [string, string, ChartComponent | null],
    ),
  ];
  // A host of configured agents: its settings are the base of its agents' models (each names its own).
  for (const host of listHostPackages(repoRoot)) {
    const key = chartKeyFor(host);
    components.push([host.name, key, (values as Record<string, ChartComponent | null | undefined>)[key]]);
  }
  for (const [agent, key, component] of components) {
    const host = listHostPackages(repoRoot).some((candidate) => candidate.name === agent);
    if ((!agents.includes(agent) && !host) || component?.enabled === false) continue;
    const secrets = [...shared, ...(component?.secretKeys ?? [])].map((name) => [name, SET_ELSEWHERE]);
    found.push({
      where: `${CHART_VALUES} config and ${key}`,
      agents: host ? [] : [agent],
      env: { ...Object.fromEntries(secrets), ...config, ...strings(component?.env) },
      complete: true,
    });
  }
  return found;
}

interface ChartComponent {
  enabled?: boolean;
  env?: Record<string, unknown> | null;
  secretKeys?: string[] | null;
}
interface ChartValues {
  config?: Record<string, unknown> | null;
  secrets?: { sharedKeys?: string[] | null } | null;
  supervisor?: ChartComponent | null;
  agents?: Record<string, ChartComponent | null> | null;
}

function strings(record: Record<string, unknown> | null | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(record ?? {}).map(([name, value]) => [name, String(value ?? "")]));
}

/** An env-file value as the agent gets it: 'single' or "double" quotes removed. */
function unquoted(value: string): string {
  const match = /^'(.*)'$|^"(.*)"$/.exec(value.trim());
  return match ? (match[1] ?? match[2] ?? "") : value;
}
