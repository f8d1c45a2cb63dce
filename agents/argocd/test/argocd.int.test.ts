import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeArgoCd } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

// The conformance suite against the fake Argo CD API server; this agent's own cases follow it.
const agent = agentConformance({
  name: "argocd",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["argocd_applications", "argocd_changes"],
  description: "Argo CD applications",
  service: {
    start: () => startFakeArgoCd(),
    env: (argo) => ({ ARGOCD_API_URL: argo.url, ARGOCD_TOKEN: argo.token }),
    requests: (argo) => argo.requests.length,
  },
  llmRules: [
    {
      lastUser: /^which apps are out of sync\??$/i,
      reply: callTool("list_applications", { sync_status: "OutOfSync" }),
    },
    {
      lastUser: /^why is ([\w-]+) degraded\??$/i,
      reply: (_r, { match }) => callTool("get_application", { name: match?.[1] }),
    },
    {
      lastUser: /^history of ([\w-]+)$/i,
      reply: (_r, { match }) => callTool("get_application_history", { name: match?.[1] }),
    },
    {
      lastUser: /^sync ([\w-]+)$/i,
      reply: (_r, { match }) => callTool("sync_application", { name: match?.[1] }),
    },
    {
      lastUser: /^roll ([\w-]+) back to deployment (\d+)$/i,
      reply: (_r, { match }) =>
        callTool("rollback_application", { name: match?.[1], history_id: Number(match?.[2]) }),
    },
  ],
  fallback: "I can inspect, sync and roll back Argo CD applications.",
  read: {
    prompt: "which apps are out of sync?",
    answer: "checkout-api [OutOfSync, Degraded] project payments, apps/checkout-api@HEAD → checkout-api",
    check: (argo) => {
      expect(
        argo.requests.some((request) => request.path === "/api/v1/applications" && request.status === 200),
      ).toBe(true);
    },
  },
  change: {
    prompt: "roll checkout-api back to deployment 5",
    question: "Roll Argo CD application checkout-api back to deployment id 5.",
    applied: (argo) => argo.operations,
    answer: "Rollback of checkout-api to history id 5 (c0ffee000002) started",
    checkPending: (argo) => expect(argo.operations).toHaveLength(0),
    check: (_argo, _answer, operation) =>
      expect(operation).toEqual({
        action: "rollback",
        application: "checkout-api",
        revision: "c0ffee000002",
        historyId: 5,
        prune: false,
      }),
  },
  decline: {
    prompt: "sync guestbook",
    question: "Sync Argo CD application guestbook to its target revision.",
    check: (argo) => expect(argo.operations.some((one) => one.application === "guestbook")).toBe(false),
  },
  credentials: { variable: "ARGOCD_TOKEN" },
  streaming: {
    prompt: "history of checkout-api",
    tool: "get_application_history",
    answer: "id 6: 0ff1ce0ff1ce",
  },
  pythonPeer: { prompt: "why is checkout-api degraded?", answer: "exceeded its progress deadline" },
});

it("explains a degraded application by its health message and failing resources", async () => {
  const { text } = await agent.ask("why is checkout-api degraded?");
  expect(text).toContain("Health: Deployment checkout-api exceeded its progress deadline");
  // The seeded failed sync, or the suite's rollback when the whole file runs.
  expect(text).toMatch(/Last operation: (Failed — one or more objects failed to apply|Running — )/);
  expect(text).toContain(
    "- Deployment checkout-api/checkout-api [OutOfSync, Degraded: exceeded its progress deadline]",
  );
  expect(text).not.toContain("Service checkout-api");
});

it("syncs after approval, and passes on Argo CD's refusal to roll back an auto-synced app", async () => {
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const asked = await connection.send({ text: "sync platform-ingress", contextId });
  const synced = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(synced.text).toContain("Sync of platform-ingress started (revision HEAD)");

  const rollback = await connection.send({ text: "roll platform-ingress back to deployment 2", contextId });
  const refused = await connection.send({ text: "yes", contextId, taskId: rollback.taskId });
  expect(refused.text).toContain("rollback cannot be initiated when auto-sync is enabled");
  expect(
    agent.service.operations.filter(
      (one) => one.action === "rollback" && one.application === "platform-ingress",
    ),
  ).toHaveLength(0);
});

it("fails the turn when Argo CD refuses the token, naming ARGOCD_TOKEN and never showing it", async () => {
  const wrong = "argocd-token-that-argo-refuses";
  const result = await agent.ask("which apps are out of sync?", { ARGOCD_TOKEN: wrong });
  expect(result.state).toBe("failed");
  expect(result.text).toContain("Argo CD refused the credentials (HTTP 401");
  expect(result.text).toContain("check ARGOCD_TOKEN");
  expect(result.text).not.toContain(wrong);
});
