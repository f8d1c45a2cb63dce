import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeBackstage } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

// The conformance suite against the fake Backstage catalog backend, which the agent reaches through
// the real @backstage/catalog-client; this agent's own cases follow it.
const agent = agentConformance({
  name: "backstage",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["backstage_catalog", "backstage_changes"],
  description: "software catalog",
  service: {
    start: () => startFakeBackstage(),
    env: (backstage) => ({ BACKSTAGE_URL: backstage.url, BACKSTAGE_API_TOKEN: backstage.token }),
    requests: (backstage) => backstage.requests.length,
  },
  llmRules: [
    {
      lastUser: /^who owns ([\w:/-]+)\??$/i,
      reply: (_r, { match }) => callTool("get_entity", { ref: match?.[1] }),
    },
    {
      lastUser: /^which services does the (\w+) team own\??$/i,
      reply: (_r, { match }) =>
        callTool("search_catalog", { kind: "Component", type: "service", owner: match?.[1] }),
    },
    {
      lastUser: /^search the catalog for (\w+)$/i,
      reply: (_r, { match }) => callTool("search_catalog", { text: match?.[1] }),
    },
    {
      lastUser: /^refresh ([\w:/-]+)$/i,
      reply: (_r, { match }) => callTool("refresh_entity", { ref: match?.[1] }),
    },
  ],
  fallback: "I can search the Backstage catalog and refresh entities.",
  read: {
    prompt: "who owns checkout-api?",
    answer: [
      "component:default/checkout-api [service, production] owner group:default/payments",
      "dependsOn: resource:default/checkout-db",
      "Link: Runbook https://runbooks.example.com/checkout-api",
    ],
    check: (backstage) => {
      expect(backstage.requests.map((request) => request.path)).toContain(
        "/api/catalog/entities/by-name/component/default/checkout-api",
      );
    },
  },
  change: {
    prompt: "refresh component:default/web-shop",
    question: "Refresh the Backstage catalog entity component:default/web-shop from its source.",
    applied: (backstage) => backstage.refreshed,
    answer: "Asked Backstage to refresh component:default/web-shop",
    checkPending: (backstage) => expect(backstage.refreshed).toHaveLength(0),
    check: (_backstage, _answer, refreshed) => expect(refreshed).toBe("component:default/web-shop"),
  },
  decline: {
    prompt: "refresh checkout-db",
    question: "Refresh the Backstage catalog entity component:default/checkout-db from its source.",
    check: (backstage) => expect(backstage.refreshed).not.toContain("component:default/checkout-db"),
  },
  credentials: { variable: "BACKSTAGE_API_TOKEN" },
  streaming: {
    prompt: "search the catalog for refunds",
    tool: "search_catalog",
    answer: "component:default/refunds-worker",
  },
  pythonPeer: {
    prompt: "which services does the payments team own?",
    answer: "component:default/refunds-worker",
  },
});

it("lists a team's services by the ownership relation", async () => {
  const { text } = await agent.ask("which services does the payments team own?");
  expect(text).toContain("component:default/checkout-api [service, production] owner group:default/payments");
  expect(text).toContain("component:default/refunds-worker [service, experimental]");
  expect(text).not.toContain("web-shop");
  expect(text).not.toContain("checkout-db");
});

it("says when the catalog has no such entity", async () => {
  const { text } = await agent.ask("who owns component:default/ghost");
  expect(text).toContain("The catalog has no entity component:default/ghost");
});

it("fails the turn when Backstage refuses the token, naming BACKSTAGE_API_TOKEN and never showing it", async () => {
  const wrong = "backstage-token-that-backstage-refuses";
  const result = await agent.ask("who owns checkout-api?", { BACKSTAGE_API_TOKEN: wrong });
  expect(result.state).toBe("failed");
  expect(result.text).toContain("Backstage refused the credentials (HTTP 401: Illegal token)");
  expect(result.text).toContain("check BACKSTAGE_API_TOKEN");
  expect(result.text).not.toContain(wrong);
});
