// biome-ignore-all lint/suspicious/noTemplateCurlyInString: MCP server lists refer to variables as ${VAR}, on purpose.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeSplunk } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import {
  createSplunkSearchServer,
  type McpHttpServer,
  type SplunkSearchServerOptions,
  startMcpHttpServer,
} from "@switchboard-testing/test-mcp";
import { afterAll, expect, it } from "vitest";

// The conformance suite against the fake Splunk Observability Cloud REST API v2; this agent's own cases follow it.
const agent = agentConformance({
  name: "splunk",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["splunk_alerting", "splunk_metadata", "splunk_changes"],
  description: "detectors and their incidents",
  service: {
    start: () => startFakeSplunk(),
    env: (sf) => ({ SPLUNK_API_URL: sf.url, SPLUNK_TOKEN: sf.token }),
    requests: (sf) => sf.requests.length,
  },
  llmRules: [
    { lastUser: /^which incidents are active\??$/i, reply: callTool("list_incidents", {}) },
    { lastUser: /^what is muted\??$/i, reply: callTool("list_muting_rules", {}) },
    {
      lastUser: /^search the logs: (.+)$/i,
      reply: (_r, { match }) => callTool("run_splunk_query", { query: match?.[1], earliest_time: "-4h" }),
    },
    {
      lastUser: /^which hosts report ([^\s?]+)\??$/i,
      reply: (_r, { match }) => callTool("search_time_series", { query: `sf_metric:${match?.[1]}` }),
    },
    {
      lastUser: /^deploys of (\S+)$/i,
      reply: (_r, { match }) =>
        callTool("find_events", { query: `sf_eventType:deploy AND service:${match?.[1]}` }),
    },
    {
      lastUser: /^show detector (\S+)$/i,
      reply: (_r, { match }) => callTool("get_detector", { detector: match?.[1] }),
    },
    {
      lastUser: /^disable detector (\S+)$/i,
      reply: (_r, { match }) => callTool("disable_detector", { detector: match?.[1] }),
    },
    {
      lastUser: /^clear incident (\S+)$/i,
      reply: (_r, { match }) => callTool("clear_incident", { incident: match?.[1] }),
    },
    {
      lastUser: /^mute (\w+)=(\S+) for (\d+) minutes: (.+)$/i,
      reply: (_r, { match }) =>
        callTool("mute_alerts", {
          property: match?.[1],
          value: match?.[2],
          minutes: Number(match?.[3]),
          reason: match?.[4],
        }),
    },
  ],
  fallback: "I can read Splunk detectors, incidents and metrics, and mute alerts.",
  read: {
    prompt: "which incidents are active?",
    answer: [/FkVtK7bAYAA \[active, Critical\] Checkout latency p99: p99 above 2s — ANOMALOUS/],
    check: (sf) => {
      const list = sf.requests.find((one) => one.path === "/v2/incident");
      expect(list?.query.get("includeResolved")).toBe("false");
      expect(list?.status).toBe(200);
    },
  },
  change: {
    prompt: "mute service=checkout for 30 minutes: deploying v43",
    question: 'Mute Splunk alerts where service=checkout for 30 minutes ("deploying v43").',
    applied: (sf) => sf.changes,
    answer: "Created muting rule",
    checkPending: (sf) => expect(sf.changes).toHaveLength(0),
    check: (_sf, _answer, change) => {
      expect(change).toMatchObject({
        action: "mute",
        rule: {
          description: "deploying v43",
          filters: [{ property: "service", propertyValue: "checkout", NOT: false }],
        },
      });
      const rule = change && "rule" in change ? change.rule : undefined;
      expect((rule?.stopTime ?? 0) - (rule?.startTime ?? 0)).toBe(30 * 60_000);
    },
  },
  decline: {
    prompt: "disable detector FkR3zLpAYAA",
    question: "Disable every rule of Splunk detector FkR3zLpAYAA.",
    check: (sf) => {
      expect(sf.state.detectors[0]?.rules.every((rule) => !rule.disabled)).toBe(true);
      expect(sf.requests.some((request) => request.method === "PUT")).toBe(false);
    },
  },
  credentials: { variable: "SPLUNK_TOKEN" },
  streaming: { prompt: "what is muted?", tool: "list_muting_rules", answer: "etl maintenance window" },
});

it("searches time series and deploy events, and shows a detector with its incidents", async () => {
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const hosts = await connection.send({ text: "which hosts report http.server.duration.p99?", contextId });
  expect(hosts.text).toContain("http.server.duration.p99 {service=checkout, host=web-1}");
  expect(hosts.text).toContain("host=web-2");
  expect(hosts.text).not.toContain("cpu.utilization");
  const deploys = await connection.send({ text: "deploys of checkout", contextId });
  expect(deploys.text).toMatch(/deploy \{service=checkout\} version=v42, by=ci/);
  const detector = await connection.send({ text: "show detector FkR3zLpAYAA", contextId });
  expect(detector.text).toContain("Checkout latency p99 (id FkR3zLpAYAA): p99 above 2s (Critical)");
  expect(detector.text).toContain("detect(when(A > 2000))");
  expect(detector.text).toContain("FkVtK7bAYAA [active, Critical]");
});

it("clears an incident after the user approves; Splunk's refusal of a cleared one reaches the user", async () => {
  const sf = agent.service;
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const asked = await connection.send({ text: "clear incident FkVtK7bAYAA", contextId });
  expect(asked.question).toContain("Clear Splunk incident FkVtK7bAYAA.");
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("Cleared incident FkVtK7bAYAA.");
  expect(sf.state.incidents[0]).toMatchObject({ active: false, anomalyState: "MANUALLY_RESOLVED" });
  expect(sf.changes.at(-1)).toEqual({ action: "clear", incidentId: "FkVtK7bAYAA" });

  const again = await connection.send({ text: "clear incident FkUa1x3AYAA", contextId });
  const refused = await connection.send({ text: "yes", contextId, taskId: again.taskId });
  expect(refused.text).toContain("Incident FkUa1x3AYAA is not active");
});

it("fails the turn naming SPLUNK_TOKEN when Splunk refuses it, without showing it", async () => {
  const wrong = "wrong-sf-token-5555";
  const result = await agent.ask("which incidents are active?", { SPLUNK_TOKEN: wrong });
  expect(result.state).toBe("failed");
  expect(result.text).toContain("Splunk Observability Cloud refused the credentials (HTTP 401");
  expect(result.text).toContain("check SPLUNK_TOKEN");
  expect(result.text).not.toContain(wrong);
});

// Log search, as CAIPE's Splunk agent did it: the Splunk Platform MCP server's run_splunk_query, connected
// through SPLUNK_MCP_SERVERS with CAIPE's SPLUNK_MCP_URL and SPLUNK_MCP_TOKEN filled in; a local MCP
// server over Streamable HTTP serves the tool.
let platform: McpHttpServer | undefined;
afterAll(() => platform?.close());

it("searches logs with the Splunk Platform MCP server's run_splunk_query through SPLUNK_MCP_SERVERS", async () => {
  const token = "splunk-mcp-token-31f0";
  const search: SplunkSearchServerOptions = {
    searches: [],
    events: [
      {
        _time: "2026-06-01T11:58:00Z",
        index: "shop",
        sourcetype: "app",
        host: "checkout-1",
        _raw: "ERROR payment gateway timeout after 30s",
      },
      {
        _time: "2026-06-01T11:57:00Z",
        index: "shop",
        sourcetype: "app",
        host: "checkout-2",
        _raw: "INFO order 1042 placed",
      },
      {
        _time: "2026-06-01T11:56:00Z",
        index: "infra",
        sourcetype: "syslog",
        host: "node-7",
        _raw: "ERROR disk full on /var",
      },
    ],
  };
  platform = await startMcpHttpServer({ create: () => createSplunkSearchServer(search), token });
  const connection = await agent.connect({
    SPLUNK_MCP_SERVERS: JSON.stringify({
      "splunk-platform": {
        url: "${SPLUNK_MCP_URL}",
        headers: { Authorization: "Bearer ${SPLUNK_MCP_TOKEN}" },
      },
    }),
    SPLUNK_MCP_URL: platform.url,
    SPLUNK_MCP_TOKEN: token,
  });
  const result = await connection.send({
    text: "search the logs: index=shop error | head 10",
    contextId: agent.contextId(),
  });
  // Read-only on the server (readOnlyHint), so it runs without asking; the token reached it.
  expect(result.state).toBe("completed");
  expect(result.text).toContain("ERROR payment gateway timeout after 30s");
  expect(result.text).not.toContain("order 1042");
  expect(result.text).not.toContain("disk full");
  expect(search.searches).toEqual([
    { query: "index=shop error | head 10", earliest_time: "-4h", row_limit: 100 },
  ]);
  expect(platform.requests).not.toContain("POST 401");
});
