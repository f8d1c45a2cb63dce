import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeKomodor } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

// The conformance suite against the fake Komodor API v2; this agent's own cases follow it.
const agent = agentConformance({
  name: "komodor",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["komodor_troubleshooting", "komodor_cost", "komodor_access"],
  description: "health risks",
  service: {
    start: () => startFakeKomodor(),
    env: (komodor) => ({ KOMODOR_API_URL: komodor.url, KOMODOR_TOKEN: komodor.token }),
    requests: (komodor) => komodor.requests.length,
  },
  llmRules: [
    {
      lastUser: /^what issues does ([\w-]+) have\??$/i,
      reply: (_r, { match }) => callTool("search_issues", { cluster: match?.[1] }),
    },
    {
      lastUser: /^warnings in ([\w-]+)\/([\w-]+)$/i,
      reply: (_r, { match }) =>
        callTool("search_k8s_events", { cluster: match?.[1], namespace: match?.[2], warnings_only: true }),
    },
    { lastUser: /^open health risks$/i, reply: callTool("list_health_risks", {}) },
    {
      lastUser: /^costs of ([\w-]+)$/i,
      reply: (_r, { match }) => callTool("cost_allocation", { cluster: match?.[1] }),
    },
    { lastUser: /^right-sizing$/i, reply: callTool("right_sizing", {}) },
    {
      lastUser: /^failed jobs in ([\w-]+)$/i,
      reply: (_r, { match }) => callTool("search_jobs", { cluster: match?.[1], failed_only: true }),
    },
    { lastUser: /^who did what today\??$/i, reply: callTool("audit_log", {}) },
    {
      lastUser: /^ignore risk (\S+)$/i,
      reply: (_r, { match }) => callTool("set_health_risk_status", { risk: match?.[1], status: "ignored" }),
    },
    {
      lastUser: /^give (\S+) role ([\w-]+) until (\S+)$/i,
      reply: (_r, { match }) =>
        callTool("assign_rbac_role", { email: match?.[1], role: match?.[2], until: match?.[3] }),
    },
    {
      lastUser: /^remove role ([\w-]+) from (\S+)$/i,
      reply: (_r, { match }) => callTool("remove_rbac_role", { email: match?.[2], role: match?.[1] }),
    },
    {
      lastUser: /^why is (\w+) ([\w-]+)\/([\w-]+)\/([\w-]+) failing\??$/i,
      reply: (_r, { match }) =>
        callTool("start_root_cause", {
          kind: match?.[1],
          cluster: match?.[2],
          namespace: match?.[3],
          name: match?.[4],
        }),
    },
  ],
  fallback: "I can answer about Komodor clusters, issues, health risks and costs.",
  read: {
    prompt: "what issues does prod-eu have?",
    answer: [
      /iss-1001 \[open\] Deployment shop\/checkout: CrashLoopBackOff/,
      /iss-0998 \[closed\] Deployment data\/etl-worker: OOMKilled/,
    ],
    check: (komodor) => {
      const search = komodor.requests.find((one) => one.path === "/api/v2/clusters/issues/search");
      expect(search?.body).toMatchObject({ scope: { cluster: "prod-eu" } });
      expect(search?.status).toBe(200);
    },
  },
  change: {
    prompt: "why is Deployment prod-eu/shop/checkout failing?",
    question: "Start a Klaudia root-cause analysis of Deployment shop/checkout in prod-eu.",
    applied: (komodor) => komodor.changes,
    answer: ["Problem: Deployment checkout is in CrashLoopBackOff", "Roll back to the last healthy image"],
    checkPending: (komodor) => expect(komodor.changes).toHaveLength(0),
    check: (_komodor, _answer, change) => {
      expect(change).toMatchObject({
        action: "rca",
        session: { clusterName: "prod-eu", namespace: "shop", kind: "Deployment", name: "checkout" },
      });
    },
  },
  decline: {
    prompt: "ignore risk vio-502",
    question: "Set Komodor health risk vio-502 to ignored.",
    check: (komodor) => {
      expect(komodor.state.risks.find((one) => one.id === "vio-502")?.status).toBe("open");
      expect(komodor.requests.some((request) => request.method === "PUT")).toBe(false);
    },
  },
  credentials: { variable: "KOMODOR_TOKEN" },
  streaming: {
    prompt: "open health risks",
    tool: "list_health_risks",
    answer: "vio-501 [high, open] restartingContainers",
  },
});

it("answers events, costs, right-sizing, jobs and the audit log from Komodor", async () => {
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const ask = async (text: string) => (await connection.send({ text, contextId })).text;
  const warnings = await ask("warnings in prod-eu/shop");
  expect(warnings).toContain(
    "Warning BackOff Pod shop/checkout-7d9f-x2: Back-off restarting failed container checkout",
  );
  expect(warnings).not.toContain("ScalingReplicaSet");
  const costs = await ask("costs of prod-eu");
  expect(costs).toContain("prod-eu/shop: $1842.50 (CPU $1210.25, memory $632.25), efficiency 41%");
  expect(costs).toContain("Total over 30d: $2802.50");
  expect(await ask("right-sizing")).toContain(
    "CPU 2 → 0.5 cores, memory 4096 → 1536 MiB, saves $312.40/month",
  );
  expect(await ask("failed jobs in prod-eu")).toMatch(/CronJob data\/nightly-report: failed/);
  expect(await ask("who did what today?")).toMatch(
    /alice@example\.com restart Workload prod-eu\/shop\/checkout \(success\)/,
  );
});

it("ignores a health risk after the user approves, and fails naming KOMODOR_TOKEN when Komodor refuses it", async () => {
  const komodor = agent.service;
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const asked = await connection.send({ text: "ignore risk vio-503", contextId });
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("Updated: vio-503 [low, ignored] kubernetesEndOfLife on staging");
  expect(komodor.changes.at(-1)).toEqual({ action: "risk-status", riskId: "vio-503", status: "ignored" });

  const wrong = "wrong-komodor-key-77";
  const refused = await agent.ask("what issues does prod-eu have?", { KOMODOR_TOKEN: wrong });
  expect(refused.state).toBe("failed");
  expect(refused.text).toContain("Komodor refused the credentials (HTTP 401");
  expect(refused.text).toContain("check KOMODOR_TOKEN");
  expect(refused.text).not.toContain(wrong);
});

it("gives a user an RBAC role until a date and takes one away after the user approves each, naming unknown roles", async () => {
  const komodor = agent.service;
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const asked = await connection.send({
    text: "give bob@example.com role account-admin until 2026-12-31T23:59:59Z",
    contextId,
  });
  expect(asked.question).toContain(
    "Give Komodor user bob@example.com the RBAC role account-admin until 2026-12-31T23:59:59Z.",
  );
  const given = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(given.text).toContain("bob@example.com now has the Komodor role account-admin until 2026-12-31");
  expect(komodor.changes.at(-1)).toEqual({
    action: "role-assign",
    userRole: { userId: "user-2", roleId: "role-1", expiration: "2026-12-31T23:59:59Z" },
  });

  const remove = await connection.send({ text: "remove role viewer from bob@example.com", contextId });
  expect(remove.question).toContain("Remove the RBAC role viewer from Komodor user bob@example.com.");
  const removed = await connection.send({ text: "yes", contextId, taskId: remove.taskId });
  expect(removed.text).toContain("bob@example.com no longer has the Komodor role viewer.");
  expect(komodor.state.userRoles.filter((one) => one.userId === "user-2")).toEqual([
    { userId: "user-2", roleId: "role-1", expiration: "2026-12-31T23:59:59Z" },
  ]);

  const before = komodor.changes.length;
  const unknown = await connection.send({ text: "remove role owner from bob@example.com", contextId });
  const refused = await connection.send({ text: "yes", contextId, taskId: unknown.taskId });
  expect(refused.text).toContain('Komodor has no RBAC role "owner"; its roles are account-admin, viewer.');
  expect(komodor.changes).toHaveLength(before);
});
