import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeSplunk } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

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
