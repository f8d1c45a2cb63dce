import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  listAgentPackages,
  mcpReferences,
  mcpVariablePrefix,
  mcpVariablesFor,
  parseMcpServers,
  SUPERVISOR,
} from "@switchboard/contract";
import { parse } from "yaml";
import { CHART_VALUES } from "./chart.js";
import { COMPOSE_FILE, environmentOf, readComposeFile } from "./compose.js";
import { readEnvExample } from "./env-example.js";

/** The generic names .env.example documents the per-agent MCP variables by (in a comment). */
const DOCUMENTED_AS = mcpVariablesFor("AGENT");

/** Header and env names whose values are credentials: they belong in a variable, referred to as ${VAR}. */
const SECRET_NAME = /authorization|token|secret|password|api[-_]?key|cookie|credential/i;

/** Every agent's MCP variables (`JIRA_MCP_SERVERS`, …): the runtime reads them for each agent but the supervisor. */
export function agentMcpVariables(repoRoot: string): Set<string> {
  return new Set(
    listAgentPackages(repoRoot)
      .filter((agent) => agent.name !== SUPERVISOR)
      .flatMap((agent) => Object.values(mcpVariablesFor(agent.name))),
  );
}

/**
 * The agents' MCP settings wherever the fleet files set them (.env.example, docker-compose.dev.yaml,
 * the chart's values): each names an agent package, each server list parses, and credentials are
 * referred to as ${VAR} rather than written in. .env.example documents the per-agent variables.
 */
export function checkMcpSettings(repoRoot: string): string[] {
  const problems: string[] = [];
  const example = readEnvExample(repoRoot);
  for (const name of Object.values(DOCUMENTED_AS)) {
    if (!example.mentioned.has(name)) {
      problems.push(
        `.env.example: document <AGENT>${name.slice("AGENT".length)} (the runtime reads it for every agent).`,
      );
    }
  }
  const known = agentMcpVariables(repoRoot);
  const agents = listAgentPackages(repoRoot)
    .filter((agent) => agent.name !== SUPERVISOR)
    .map((agent) => agent.name);
  for (const { where, name, value } of settingsIn(repoRoot, example)) {
    if (!mcpVariablePrefix(name)) continue;
    if (!known.has(name)) {
      problems.push(
        `${where}: ${name} is read by no agent (the supervisor takes no MCP tools; the agents are ${agents.join(", ")}).`,
      );
      continue;
    }
    if (!name.endsWith("_MCP_SERVERS") || !value.trim()) continue;
    const parsed = parseMcpServers(value);
    if (!parsed.ok) {
      for (const problem of parsed.problems) problems.push(`${where}: ${name}: ${problem}`);
      continue;
    }
    for (const [server, config] of Object.entries(parsed.servers)) {
      const secrets = config.transport === "stdio" ? config.env : config.headers;
      for (const [key, text] of Object.entries(secrets)) {
        if (SECRET_NAME.test(key) && !text.includes("${")) {
          problems.push(
            `${where}: ${name}: server "${server}" writes ${key} in: refer to a variable (\${MY_TOKEN}) kept in a secret instead.`,
          );
        }
      }
      for (const reference of mcpReferences({ [server]: config }).keys()) {
        if (
          where === ".env.example" &&
          !example.variables.has(reference) &&
          !example.mentioned.has(reference)
        ) {
          problems.push(
            `${where}: ${name}: server "${server}" refers to ${reference}; document it in .env.example.`,
          );
        }
      }
    }
  }
  return problems;
}

/** The variables the agents' MCP server lists in the fleet files refer to (`${TICKETS_TOKEN}`): read by the agent. */
export function mcpReferencedVariables(repoRoot: string): Set<string> {
  const names = new Set<string>();
  for (const { name, value } of settingsIn(repoRoot, readEnvExample(repoRoot))) {
    if (!name.endsWith("_MCP_SERVERS") || !mcpVariablePrefix(name)) continue;
    const parsed = parseMcpServers(value);
    if (parsed.ok) for (const reference of mcpReferences(parsed.servers).keys()) names.add(reference);
  }
  return names;
}

interface Setting {
  where: string;
  name: string;
  value: string;
}

function settingsIn(repoRoot: string, example: ReturnType<typeof readEnvExample>): Setting[] {
  const settings: Setting[] = [...example.variables].map(([name, { value }]) => ({
    where: ".env.example",
    name,
    value: unquoted(value),
  }));
  try {
    for (const [service, definition] of Object.entries(readComposeFile(repoRoot).document.services ?? {})) {
      for (const [name, value] of environmentOf(definition)) {
        // `$$` is Compose's escape for a literal `$` (a ${VAR} left for the agent to fill in).
        settings.push({ where: `${COMPOSE_FILE} ${service}`, name, value: value.replaceAll("$$", "$") });
      }
    }
  } catch {
    // checkCompose reports an unreadable compose file.
  }
  const chartPath = join(repoRoot, CHART_VALUES);
  if (existsSync(chartPath)) {
    try {
      const values = (parse(readFileSync(chartPath, "utf8")) ?? {}) as {
        config?: Record<string, unknown> | null;
        agents?: Record<string, { env?: Record<string, unknown> | null } | null> | null;
      };
      for (const [name, value] of Object.entries(values.config ?? {})) {
        settings.push({ where: `${CHART_VALUES} config`, name, value: String(value ?? "") });
      }
      for (const [agent, entry] of Object.entries(values.agents ?? {})) {
        for (const [name, value] of Object.entries(entry?.env ?? {})) {
          settings.push({ where: `${CHART_VALUES} agents.${agent}.env`, name, value: String(value ?? "") });
        }
      }
    } catch {
      // checkChart reports unreadable values.
    }
  }
  return settings;
}

/** An env-file value as the agent gets it: 'single' or "double" quotes removed. */
function unquoted(value: string): string {
  const match = /^'(.*)'$|^"(.*)"$/.exec(value.trim());
  return match ? (match[1] ?? match[2] ?? "") : value;
}
