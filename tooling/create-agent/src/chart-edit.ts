import { envPrefixFor } from "@switchboard/contract";
import { CHART_VALUES } from "@switchboard/fleet-config";
import { type Document, isMap, isScalar, isSeq, parseDocument, type YAMLMap } from "yaml";

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
  agent: { name: string; port: number; kind?: "api" | "mcp" | "openapi"; secrets?: string[] },
): string {
  const { document, agents } = parse(text);
  const prefix = envPrefixFor(agent.name);
  const mcp = agent.kind === "mcp";
  // An agent made from an OpenAPI description takes its schemes' variables; the example API client a token.
  const secrets = agent.secrets ?? [`${prefix}_API_TOKEN`];
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
            ...(secrets.length > 0 ? { secretKeys: secrets } : {}),
          },
    ),
  );
  agents.items.sort((a, b) => String(a.key).localeCompare(String(b.key)));
  if (!mcp) for (const secret of secrets) document.setIn(["secrets", "values", secret], "");
  return document.toString(WRITE_OPTIONS);
}

/** Takes back what {@link addAgentToChart} added. */
export function removeAgentFromChart(text: string, name: string): string {
  const { document, agents } = parse(text);
  // Its Secret's keys: those it lists (an OpenAPI agent's, one per credential variable), and the
  // example client's token.
  const listed = document.getIn(["agents", name, "secretKeys"]);
  const secrets = new Set([
    ...(isSeq(listed) ? listed.items.map((item) => String(isScalar(item) ? item.value : item)) : []),
    `${envPrefixFor(name)}_API_TOKEN`,
  ]);
  agents.delete(name);
  for (const secret of secrets) document.deleteIn(["secrets", "values", secret]);
  return document.toString(WRITE_OPTIONS);
}
