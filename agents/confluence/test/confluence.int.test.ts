import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeConfluence } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

// The conformance suite against the fake Confluence Cloud REST API, which the agent reaches through
// the real confluence.js client; this agent's own cases follow it.
const agent = agentConformance({
  name: "confluence",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["confluence_pages", "confluence_changes"],
  description: "CQL",
  service: {
    start: () => startFakeConfluence(),
    env: (wiki) => ({
      CONFLUENCE_API_URL: wiki.url,
      CONFLUENCE_USERNAME: wiki.email,
      CONFLUENCE_API_TOKEN: wiki.token,
    }),
    requests: (wiki) => wiki.requests.length,
  },
  llmRules: [
    {
      lastUser: /^find (.+) in ([A-Z]+)$/,
      reply: (_r, { match }) =>
        callTool("search", {
          cql: `space = ${match?.[2]} AND text ~ "${match?.[1]}" ORDER BY lastmodified DESC`,
        }),
    },
    { lastUser: /^read page (\d+)$/i, reply: (_r, { match }) => callTool("get_page", { id: match?.[1] }) },
    {
      lastUser: /^create a page in ([A-Z]+) titled (.+?): (.+)$/,
      reply: (_r, { match }) =>
        callTool("create_page", { space: match?.[1], title: match?.[2], body: match?.[3] }),
    },
    {
      lastUser: /^replace page (\d+) with: (.+)$/i,
      reply: (_r, { match }) => callTool("update_page", { id: match?.[1], body: match?.[2] }),
    },
  ],
  fallback: "I can search, read, create and update Confluence pages.",
  read: {
    prompt: "find roll back in OPS",
    answer:
      /65537: Checkout API runbook \(Operations, updated [\d-]+\) — Checkout API runbook When 5xx rise, roll back/,
    check: (wiki) => {
      const search = wiki.requests.find((request) => request.path === "/wiki/rest/api/search");
      expect(search?.query.get("cql")).toBe('space = OPS AND text ~ "roll back" ORDER BY lastmodified DESC');
    },
  },
  change: {
    prompt: "create a page in ENG titled Deploy freeze: No deploys on Friday.",
    question: 'Create the Confluence page "Deploy freeze" in space ENG.',
    applied: (wiki) => wiki.changes,
    answer: (wiki) => `Created page ${wiki.state.pages.at(-1)?.id} "Deploy freeze" in ENG.`,
    checkPending: (wiki) => expect(wiki.changes).toHaveLength(0),
    check: (wiki, _answer, change) => {
      expect(change).toMatchObject({ action: "create", title: "Deploy freeze", version: 1 });
      expect(wiki.state.pages.at(-1)).toMatchObject({
        spaceKey: "ENG",
        body: "<p>No deploys on Friday.</p>",
      });
    },
  },
  decline: {
    prompt: "replace page 65538 with: nothing",
    question: "Replace the text of Confluence page 65538.",
    check: (wiki) => expect(wiki.state.pages.find((one) => one.id === "65538")?.version).toBe(7),
  },
  credentials: { variable: "CONFLUENCE_API_TOKEN" },
  streaming: {
    prompt: "read page 65537",
    tool: "get_page",
    answer: "When 5xx rise, roll back with Argo CD.",
  },
  pythonPeer: { prompt: "find upgrade in ENG", answer: "65539: EKS 1.30 upgrade design" },
});

it("reads a page as text, with its version and author", async () => {
  const { text } = await agent.ask("read page 65537");
  expect(text).toMatch(/Checkout API runbook \(page 65537 in OPS, version 3, [\d-]+ by Alice Oncall\)/);
  expect(text).toContain("When 5xx rise, roll back with Argo CD.\nEscalate to #payments.");
  expect(text).not.toContain("<p>");
});

it("updates a page to its next version after approval", async () => {
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const asked = await connection.send({
    text: "replace page 65539 with: We upgrade staging first.",
    contextId,
  });
  expect(asked.question).toContain("Replace the text of Confluence page 65539.");
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain('Updated page 65539 "EKS 1.30 upgrade design" to version 2.');
  expect(agent.service.state.pages.find((one) => one.id === "65539")?.body).toBe(
    "<p>We upgrade staging first.</p>",
  );
});

it("fails the task naming the Confluence settings when the token is refused, without echoing it", async () => {
  const wrong = "wrong-confluence-token-0123456789";
  const result = await agent.ask("read page 65537", { CONFLUENCE_API_TOKEN: wrong });
  expect(result.state).toBe("failed");
  expect(result.text).toContain("Confluence refused the credentials (HTTP 401");
  expect(result.text).toContain("check CONFLUENCE_USERNAME and CONFLUENCE_API_TOKEN");
  expect(result.text).not.toContain(wrong);
});

it("names CONFLUENCE_API_URL and the address when nothing answers there", async () => {
  const url = `http://127.0.0.1:${await closedPort()}`;
  const { text } = await agent.ask("read page 65537", { CONFLUENCE_API_URL: url });
  expect(text).toContain(`Cannot reach Confluence at ${url} (no answer): check CONFLUENCE_API_URL`);
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
