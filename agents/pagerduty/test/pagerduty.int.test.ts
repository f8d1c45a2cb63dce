import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakePagerDuty } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

// The conformance suite against the fake PagerDuty REST API v2, which the agent reaches through the
// real @pagerduty/pdjs client; this agent's own cases follow it.
const agent = agentConformance({
  name: "pagerduty",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["pagerduty_incidents", "pagerduty_changes"],
  description: "who is on call",
  service: {
    start: () => startFakePagerDuty(),
    env: (pd) => ({
      PAGERDUTY_API_URL: pd.url,
      PAGERDUTY_API_KEY: pd.apiKey,
      PAGERDUTY_FROM_EMAIL: pd.fromEmail,
    }),
    requests: (pd) => pd.requests.length,
  },
  llmRules: [
    { lastUser: /^which incidents are open\??$/i, reply: callTool("list_incidents", {}) },
    {
      lastUser: /who is on call for (\w+)/i,
      reply: (_r, { match }) => callTool("who_is_on_call", { filter: match?.[1] }),
    },
    {
      lastUser: /^show incident (\S+)$/i,
      reply: (_r, { match }) => callTool("get_incident", { id: match?.[1] }),
    },
    {
      lastUser: /^acknowledge incident (\S+)$/i,
      reply: (_r, { match }) => callTool("acknowledge_incident", { id: match?.[1] }),
    },
    {
      lastUser: /^resolve incident (\S+)$/i,
      reply: (_r, { match }) => callTool("resolve_incident", { id: match?.[1] }),
    },
    {
      lastUser: /^page ([\w-]+): (.+)$/i,
      reply: (_r, { match }) => callTool("create_incident", { service: match?.[1], title: match?.[2] }),
    },
  ],
  fallback: "I can list, read, acknowledge, resolve and create PagerDuty incidents.",
  read: {
    prompt: "which incidents are open?",
    answer: [
      /#101 Q0CHECKOUT5XX \[triggered, high\] checkout-api 5xx rate above 5%/,
      /#102 Q0PIPELINELAG \[acknowledged, high\]/,
    ],
    check: (pd) => {
      const list = pd.requests.find((request) => request.path === "/incidents" && request.method === "GET");
      expect(list?.query.getAll("statuses[]")).toEqual(["triggered", "acknowledged"]);
      expect(list?.status).toBe(200);
    },
  },
  change: {
    prompt: "page checkout-api: payments failing in eu-west-1",
    question: 'Create a high-urgency PagerDuty incident on checkout-api: "payments failing in eu-west-1"',
    applied: (pd) => pd.changes,
    answer: (pd) => `#${pd.state.incidents.at(-1)?.incident_number}`,
    checkPending: (pd) => expect(pd.changes).toHaveLength(0),
    check: (pd, _answer, change) => {
      expect(change).toMatchObject({ action: "create", from: pd.fromEmail });
      expect(pd.state.incidents.at(-1)).toMatchObject({
        title: "payments failing in eu-west-1",
        status: "triggered",
        service: { id: "PSVC001" },
      });
    },
  },
  decline: {
    prompt: "resolve incident Q0CHECKOUT5XX",
    question: "Resolve PagerDuty incident Q0CHECKOUT5XX",
    check: (pd) => {
      expect(pd.state.incidents.find((one) => one.id === "Q0CHECKOUT5XX")?.status).toBe("triggered");
      expect(pd.requests.some((request) => request.method === "PUT")).toBe(false);
    },
  },
  credentials: { variable: "PAGERDUTY_API_KEY" },
  streaming: { prompt: "who is on call for platform", tool: "who_is_on_call", answer: "Alice Oncall" },
  pythonPeer: { prompt: "show incident Q0PIPELINELAG", answer: "data-pipeline consumer lag over 1h" },
});

it("names who is on call for a team, by escalation level", async () => {
  const { text } = await agent.ask("who is on call for platform");
  expect(text).toMatch(/Alice Oncall — level 1 of Platform escalation \(schedule Platform primary\)/);
  expect(text).toMatch(/Bob Secondary — level 2 of Platform escalation/);
  expect(text).not.toContain("Carol");
});

it("acknowledges an incident as the PAGERDUTY_FROM_EMAIL user after the user approves", async () => {
  const pd = agent.service;
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const asked = await connection.send({ text: "acknowledge incident Q0CHECKOUT5XX", contextId });
  expect(asked.state).toBe("input-required");
  expect(asked.question).toContain("Acknowledge PagerDuty incident Q0CHECKOUT5XX.");
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("Acknowledged #101 Q0CHECKOUT5XX [acknowledged, high]");
  expect(pd.state.incidents.find((one) => one.id === "Q0CHECKOUT5XX")?.acknowledgements).toEqual([
    expect.objectContaining({ acknowledger: expect.objectContaining({ summary: "Alice Oncall" }) }),
  ]);
  expect(pd.changes.at(-1)).toEqual({
    action: "acknowledge",
    incidentId: "Q0CHECKOUT5XX",
    from: pd.fromEmail,
  });
});

it("says to set PAGERDUTY_FROM_EMAIL when a change has no user to act as", async () => {
  const before = agent.service.changes.length;
  const connection = await agent.connect({ PAGERDUTY_FROM_EMAIL: undefined });
  const contextId = agent.contextId();
  const asked = await connection.send({ text: "resolve incident Q0PIPELINELAG", contextId });
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("set PAGERDUTY_FROM_EMAIL");
  expect(agent.service.changes).toHaveLength(before);
});

it("fails the turn naming PAGERDUTY_API_KEY when PagerDuty refuses the key, without showing it", async () => {
  const wrong = "u+WrongKeyNotTheRealOne9";
  const result = await agent.ask("which incidents are open?", { PAGERDUTY_API_KEY: wrong });
  expect(result.state).toBe("failed");
  expect(result.text).toContain("PagerDuty refused the credentials (HTTP 401");
  expect(result.text).toContain("check PAGERDUTY_API_KEY");
  expect(result.text).not.toContain(wrong);
});
