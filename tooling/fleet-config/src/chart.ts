import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentPackage, listFleetPackages, SUPERVISOR, WEB_UI_PORT } from "@switchboard/contract";
import { parse } from "yaml";
import { readEnvExample } from "./env-example.js";
import { agentMcpVariables } from "./mcp-check.js";

/** The Helm chart's values: one `agents.<name>` entry per agent package (charts/switchboard). */
export const CHART_VALUES = "charts/switchboard/values.yaml";

interface ChartComponent {
  enabled?: unknown;
  port?: unknown;
  env?: Record<string, unknown> | null;
  secretKeys?: unknown[] | null;
}

interface ChartValues {
  config?: Record<string, unknown> | null;
  secrets?: { values?: Record<string, unknown> | null; sharedKeys?: unknown[] | null } | null;
  supervisor?: ChartComponent | null;
  agents?: Record<string, ChartComponent | null> | null;
  /** The web chat (tools/web), component `web`. */
  web?: ChartComponent | null;
  /** A host of configured agents, by chartKeyFor (`dynamicAgents`). */
  [host: string]: unknown;
}

/**
 * Where the chart's values configure a package under agents/: the supervisor at `supervisor`, an
 * agent at `agents.<name>`, a host of configured agents at its own top-level key, its name in camel
 * case (`dynamic-agents` → `dynamicAgents`, as `slackBot`), since it is no agent of the supervisor's.
 */
export function chartKeyFor(agent: Pick<AgentPackage, "name" | "kind">): string {
  if (agent.kind === "host")
    return agent.name.replace(/-([a-z0-9])/g, (_, next: string) => next.toUpperCase());
  return agent.name === SUPERVISOR ? SUPERVISOR : `agents.${agent.name}`;
}

/**
 * The chart's values against the agent packages and .env.example: every agent package under agents/
 * has an `agents.<name>` entry on its port (the supervisor: `supervisor.port`; a host of configured
 * agents: its own key, chartKeyFor), no entry names a package that is not there, the web chat's `web` entry is on the contract's web UI port, and every
 * variable the chart sets or reads from its Secret is one .env.example documents. Empty when all is well.
 */
export function checkChart(repoRoot: string): string[] {
  const path = join(repoRoot, CHART_VALUES);
  if (!existsSync(path)) return [`${CHART_VALUES} is missing: the Helm chart needs it.`];
  let values: ChartValues;
  try {
    values = (parse(readFileSync(path, "utf8")) ?? {}) as ChartValues;
  } catch (error) {
    return [`${CHART_VALUES} is not valid YAML: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  const agents = values.agents ?? {};
  const fleet = listFleetPackages(repoRoot);
  const packages = fleet.filter((candidate) => candidate.kind === "agent");
  const hosts = fleet.filter((candidate) => candidate.kind === "host");

  for (const agent of fleet) {
    const where = chartKeyFor(agent);
    const entry =
      agent.kind === "host"
        ? (values[where] as ChartComponent | null | undefined)
        : agent.name === SUPERVISOR
          ? values.supervisor
          : agents[agent.name];
    if (!entry) {
      problems.push(
        `${CHART_VALUES}: no ${where} entry for agents/${agent.folder} (${agent.packageName}); add ` +
          `{ enabled: true, port: ${agent.port ?? "<its port>"} } so the chart deploys it and wires the supervisor to it.`,
      );
      continue;
    }
    if (entry.port !== agent.port) {
      problems.push(
        `${CHART_VALUES}: ${where}.port is ${JSON.stringify(entry.port)}, but agents/${agent.folder} declares port ${agent.port}.`,
      );
    }
    if (agent.name !== SUPERVISOR && typeof entry.enabled !== "boolean") {
      problems.push(`${CHART_VALUES}: ${where}.enabled must be true or false.`);
    }
  }
  const web = values.web;
  if (!web) {
    problems.push(
      `${CHART_VALUES}: no web entry for the web chat (tools/web); add { enabled: false, port: ${WEB_UI_PORT} }.`,
    );
  } else {
    if (web.port !== WEB_UI_PORT) {
      problems.push(
        `${CHART_VALUES}: web.port is ${JSON.stringify(web.port)}, but the web chat's contract port is ${WEB_UI_PORT}.`,
      );
    }
    if (typeof web.enabled !== "boolean")
      problems.push(`${CHART_VALUES}: web.enabled must be true or false.`);
  }
  const names = new Set(packages.map(({ name }) => name));
  for (const name of Object.keys(agents)) {
    const host = hosts.find((candidate) => candidate.name === name);
    if (host) {
      problems.push(
        `${CHART_VALUES}: agents.${name}: agents/${host.folder} is a host of configured agents, not one agent; configure it under ${chartKeyFor(host)}.`,
      );
    } else if (!names.has(name)) {
      problems.push(`${CHART_VALUES}: agents.${name} names no agent package under agents/.`);
    }
  }

  // Every variable the chart sets or reads from its Secret, with where the values name it.
  const used: Array<{ where: string; name: string }> = [];
  const note = (where: string, names: Iterable<unknown>) => {
    for (const name of names) used.push({ where, name: String(name) });
  };
  for (const name of Object.keys(values.config ?? {})) note(`config.${name}`, [name]);
  for (const name of Object.keys(values.secrets?.values ?? {})) note(`secrets.values.${name}`, [name]);
  note("secrets.sharedKeys", values.secrets?.sharedKeys ?? []);
  const components: Record<string, ChartComponent | null | undefined> = {
    supervisor: values.supervisor,
    ...prefixed(agents),
    web: values.web,
  };
  for (const host of hosts) components[chartKeyFor(host)] = values[chartKeyFor(host)] as ChartComponent;
  for (const [where, entry] of Object.entries(components)) {
    for (const name of Object.keys(entry?.env ?? {})) note(`${where}.env.${name}`, [name]);
    note(`${where}.secretKeys`, entry?.secretKeys ?? []);
  }
  const documented = readEnvExample(repoRoot).variables;
  // An agent's MCP variables are documented once, as <AGENT>_MCP_SERVERS and so on.
  const mcpVariables = agentMcpVariables(repoRoot);
  for (const { where, name } of used) {
    if (!documented.has(name) && !mcpVariables.has(name)) {
      problems.push(`${CHART_VALUES}: ${where} sets ${name}, which .env.example does not document.`);
    }
  }
  return problems;
}

/** `{ jira: … }` → `{ "agents.jira": … }` */
function prefixed<T>(agents: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(agents).map(([name, entry]) => [`agents.${name}`, entry]));
}
