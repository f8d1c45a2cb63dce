import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { type FakeVictorOps, startFakeVictorOps } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { afterAll, expect, it } from "vitest";

// The conformance suite against the fake Splunk On-Call public API; this agent's own cases follow it.
const agent = agentConformance({
  name: "victorops",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["victorops_incidents", "victorops_changes"],
  description: "who is on call",
  service: {
    start: () => startFakeVictorOps(),
    env: (vo) => ({
      VICTOROPS_API_URL: vo.url,
      X_VO_API_ID: vo.apiId,
      X_VO_API_KEY: vo.apiKey,
      VICTOROPS_USERNAME: vo.username,
    }),
    requests: (vo) => vo.requests.length,
  },
  llmRules: [
    { lastUser: /^which incidents are open\??$/i, reply: callTool("list_incidents", {}) },
    {
      lastUser: /who is on call for ([\w-]+)/i,
      reply: (_r, { match }) => callTool("who_is_on_call", { team: match?.[1] }),
    },
    {
      lastUser: /^show incident (\d+)$/i,
      reply: (_r, { match }) => callTool("get_incident", { incident: match?.[1] }),
    },
    {
      lastUser: /^acknowledge incident (\d+)$/i,
      reply: (_r, { match }) => callTool("acknowledge_incident", { incident: match?.[1] }),
    },
    {
      lastUser: /^resolve incident (\d+)$/i,
      reply: (_r, { match }) => callTool("resolve_incident", { incident: match?.[1] }),
    },
    {
      lastUser: /^note on (\d+): (.+)$/i,
      reply: (_r, { match }) => callTool("add_note", { incident: match?.[1], text: match?.[2] }),
    },
    {
      lastUser: /^which incidents are open in ([\w-]+)\??$/i,
      reply: (_r, { match }) => callTool("list_incidents", { org: match?.[1] }),
    },
    {
      lastUser: /^acknowledge incident (\d+) in ([\w-]+)$/i,
      reply: (_r, { match }) => callTool("acknowledge_incident", { incident: match?.[1], org: match?.[2] }),
    },
    {
      lastUser: /^page ([\w-]+): (.+)$/i,
      reply: (_r, { match }) => callTool("create_incident", { policy: match?.[1], summary: match?.[2] }),
    },
  ],
  fallback: "I can list, read, create, acknowledge and resolve Splunk On-Call incidents.",
  read: {
    prompt: "which incidents are open?",
    answer: [
      /#412 \[acknowledged\] checkout latency p99 above 2s — routing key checkout, Platform/,
      /#411 \[triggered\] payments API 5xx above 5%/,
    ],
    check: (vo) => {
      expect(vo.requests.find((one) => one.path === "/api-public/v1/incidents")?.status).toBe(200);
    },
  },
  change: {
    prompt: "page pol-platform-primary: payments failing in eu-west-1",
    question:
      'Create a Splunk On-Call incident "payments failing in eu-west-1", paging escalation policy pol-platform-primary.',
    applied: (vo) => vo.changes,
    answer: (vo) => `#${vo.state.incidents.at(-1)?.incidentNumber}`,
    checkPending: (vo) => expect(vo.changes).toHaveLength(0),
    check: (vo, _answer, change) => {
      expect(change).toEqual({
        action: "create",
        incidentNumber: vo.state.incidents.at(-1)?.incidentNumber,
        userName: "alice",
        targets: [{ type: "EscalationPolicy", slug: "pol-platform-primary" }],
      });
      expect(vo.state.incidents.at(-1)).toMatchObject({
        entityDisplayName: "payments failing in eu-west-1",
        currentPhase: "UNACKED",
        pagedTeams: ["team-platform"],
      });
    },
  },
  decline: {
    prompt: "resolve incident 411",
    question: "Resolve Splunk On-Call incident #411.",
    check: (vo) => {
      expect(vo.state.incidents.find((one) => one.incidentNumber === "411")?.currentPhase).toBe("UNACKED");
      expect(vo.requests.some((request) => request.method === "PATCH")).toBe(false);
    },
  },
  credentials: { variable: "X_VO_API_KEY" },
  streaming: { prompt: "who is on call for platform", tool: "who_is_on_call", answer: "alice" },
});

it("names who is on call for a team, per escalation policy", async () => {
  const { text } = await agent.ask("who is on call for platform");
  expect(text).toContain("Platform (team-platform) — Platform primary: alice");
  expect(text).toContain("Platform (team-platform) — Platform secondary: bob");
  expect(text).not.toContain("carol");
});

it("acknowledges an incident and adds a note as VICTOROPS_USERNAME after the user approves each", async () => {
  const vo = agent.service;
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const asked = await connection.send({ text: "acknowledge incident 411", contextId });
  expect(asked.state).toBe("input-required");
  expect(asked.question).toContain("Acknowledge Splunk On-Call incident #411.");
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("Incident #411 is acknowledged.");
  expect(vo.changes.at(-1)).toEqual({ action: "ack", incidentNumber: "411", userName: "alice" });

  const note = await connection.send({ text: "note on 411: rolled back to v41", contextId });
  expect(note.question).toContain('Add a note to Splunk On-Call incident #411: "rolled back to v41".');
  const noted = await connection.send({ text: "yes", contextId, taskId: note.taskId });
  expect(noted.text).toContain("Added the note to incident #411.");
  expect(vo.state.notes.get("411")?.at(-1)?.json_value).toEqual({
    text: "rolled back to v41",
    author: "alice",
  });
});

it("says Splunk On-Call's refusal when an incident is already resolved, and says to set VICTOROPS_USERNAME without one", async () => {
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const asked = await connection.send({ text: "resolve incident 409", contextId });
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("did not resolve #409: Incident is already resolved");

  const before = agent.service.changes.length;
  const nameless = await agent.connect({ VICTOROPS_USERNAME: undefined });
  const other = agent.contextId();
  const again = await nameless.send({ text: "resolve incident 412", contextId: other });
  const refused = await nameless.send({ text: "yes", contextId: other, taskId: again.taskId });
  expect(refused.text).toContain("set VICTOROPS_USERNAME");
  expect(agent.service.changes).toHaveLength(before);
});

it("fails the turn naming X_VO_API_KEY when Splunk On-Call refuses the key, without showing it", async () => {
  const wrong = "wrong-vo-key-0000";
  const result = await agent.ask("which incidents are open?", { X_VO_API_KEY: wrong });
  expect(result.state).toBe("failed");
  expect(result.text).toContain("Splunk On-Call refused the credentials (HTTP 403");
  expect(result.text).not.toContain(wrong);
});

// CAIPE's VICTOROPS_ORGS: several organisations, each with its own API, id and key; a second fake is
// the second organisation.
let globex: FakeVictorOps | undefined;
afterAll(() => globex?.close());

it("works in the organisation a call names with VICTOROPS_ORGS, and asks for one when several are set up", async () => {
  const acme = agent.service;
  globex = await startFakeVictorOps({ apiId: "globex-id", apiKey: "globex-key-9d1c" });
  const renamed = globex.state.incidents.find((one) => one.incidentNumber === "411");
  if (renamed) renamed.entityDisplayName = "globex ledger lagging";
  const org = (vo: FakeVictorOps) => ({ api_url: vo.url, api_id: vo.apiId, api_key: vo.apiKey });
  const connection = await agent.connect({
    VICTOROPS_ORGS: JSON.stringify({ acme: org(acme), globex: org(globex) }),
    X_VO_API_ID: undefined,
    X_VO_API_KEY: undefined,
  });
  const contextId = agent.contextId();
  const listed = await connection.send({ text: "which incidents are open in globex?", contextId });
  expect(listed.text).toContain("#411 [triggered] globex ledger lagging");

  const unnamed = await connection.send({ text: "which incidents are open?", contextId });
  expect(unnamed.state).toBe("completed");
  expect(unnamed.text).toContain("Several Splunk On-Call organisations are set up (acme, globex)");

  const acmeChanges = acme.changes.length;
  const asked = await connection.send({ text: "acknowledge incident 411 in globex", contextId });
  expect(asked.question).toContain("Acknowledge Splunk On-Call incident #411 in globex.");
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("Incident #411 is acknowledged.");
  expect(globex.changes).toEqual([{ action: "ack", incidentNumber: "411", userName: "alice" }]);
  expect(acme.changes).toHaveLength(acmeChanges);
});
