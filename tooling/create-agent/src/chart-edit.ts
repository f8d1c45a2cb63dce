import { envPrefixFor } from "@switchboard/contract";
import { CHART_VALUES } from "@switchboard/fleet-config";
import { type Document, isMap, parseDocument, type YAMLMap } from "yaml";

// The same options compose-edit writes with: untouched lines come out as they were.
const WRITE_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

function parse(text: string): { document: Document; agents: YAMLMap } {
  const document = parseDocument(text);
  if (document.errors.length > 0) {
    throw new Error(`${CHART_VALUES} is not valid YAML: ${document.errors[0]?.message}`);
  }
  const agents = document.get("agents");
  if (!isMap(agents)) throw new Error(`${CHART_VALUES} has no \`agents:\` map to register the agent in.`);
  return { document, agents };
}

/**
 * Registers a generated agent in the Helm chart's values: `agents.<name>` on its port, its API URL
 * as a setting and its token as a key of the chart's Secret (the variables its template reads).
 */
export function addAgentToChart(
  text: string,
  agent: { name: string; port: number; kind?: "api" | "mcp" | "openapi" },
): string {
  const { document, agents } = parse(text);
  const prefix = envPrefixFor(agent.name);
  const mcp = agent.kind === "mcp";
  // An agent made from an OpenAPI description takes an API key; the example API client a token.
  const secret = `${prefix}_${agent.kind === "openapi" ? "API_KEY" : "API_TOKEN"}`;
  // An MCP-backed agent has its server in its code; <NAME>_MCP_SERVERS, when wanted, goes in its env.
  agents.set(
    document.createNode(agent.name),
    document.createNode(
      mcp
        ? { enabled: true, port: agent.port }
        : {
            enabled: true,
            port: agent.port,
            env: { [`${prefix}_API_URL`]: "" },
            secretKeys: [secret],
          },
    ),
  );
  agents.items.sort((a, b) => String(a.key).localeCompare(String(b.key)));
  if (!mcp) document.setIn(["secrets", "values", secret], "");
  return document.toString(WRITE_OPTIONS);
}

/** Takes back what {@link addAgentToChart} added. */
export function removeAgentFromChart(text: string, name: string): string {
  const { document, agents } = parse(text);
  agents.delete(name);
  for (const secret of ["API_TOKEN", "API_KEY"])
    document.deleteIn(["secrets", "values", `${envPrefixFor(name)}_${secret}`]);
  return document.toString(WRITE_OPTIONS);
}
