import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeWebex } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

// The conformance suite against the fake Webex messaging API; this agent's own cases follow it.
const agent = agentConformance({
  name: "webex",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["webex_rooms", "webex_changes"],
  description: "rooms (spaces), messages, threads and members",
  service: {
    start: () => startFakeWebex(),
    env: (webex) => ({ WEBEX_API_URL: webex.apiUrl, WEBEX_TOKEN: webex.token }),
    requests: (webex) => webex.requests.length,
  },
  llmRules: [
    { lastUser: /^which rooms am I in\??$/i, reply: callTool("list_rooms", {}) },
    {
      lastUser: /^what was said in (.+)$/i,
      reply: (_r, { match }) => callTool("list_messages", { room: match?.[1] }),
    },
    {
      lastUser: /^replies to (\S+) in (.+)$/i,
      reply: (_r, { match }) => callTool("list_messages", { room: match?.[2], thread: match?.[1] }),
    },
    {
      lastUser: /^who is in (.+)$/i,
      reply: (_r, { match }) => callTool("list_members", { room: match?.[1] }),
    },
    {
      lastUser: /^post to ([^:]+): (.+)$/i,
      reply: (_r, { match }) => callTool("post_message", { room: match?.[1], text: match?.[2] }),
    },
    {
      lastUser: /^create a room called (.+)$/i,
      reply: (_r, { match }) => callTool("create_room", { title: match?.[1] }),
    },
    {
      lastUser: /^add (\S+@\S+) to (.+)$/i,
      reply: (_r, { match }) => callTool("add_member", { email: match?.[1], room: match?.[2] }),
    },
  ],
  fallback: "I can read and post in Webex rooms.",
  read: {
    prompt: "what was said in Platform incidents",
    answer: [
      /alice@example\.com: checkout is returning 502s since 10:02 \(message id \S+; 2 replies\)/,
      /rolling back checkout to v41/,
    ],
    check: (webex) => {
      const list = webex.requests.find((one) => one.path === "/v1/messages");
      expect(list?.query.get("roomId")).toBe(webex.state.rooms[0]?.id);
      expect(list?.status).toBe(200);
    },
  },
  change: {
    prompt: "post to Platform incidents: rollback done, 502s gone",
    question: 'Post to the Webex room "Platform incidents": "rollback done, 502s gone".',
    applied: (webex) => webex.changes,
    answer: "Posted to Platform incidents",
    checkPending: (webex) => expect(webex.changes).toHaveLength(0),
    check: (webex, _answer, change) => {
      expect(change).toMatchObject({
        action: "post",
        message: {
          roomId: webex.state.rooms[0]?.id,
          markdown: "rollback done, 502s gone",
          personEmail: "switchboard@webex.bot",
        },
      });
    },
  },
  decline: {
    prompt: "create a room called Checkout war room",
    question: 'Create the Webex room "Checkout war room".',
    check: (webex) => {
      expect(webex.state.rooms.some((one) => one.title === "Checkout war room")).toBe(false);
      expect(
        webex.requests.some((request) => request.method === "POST" && request.path === "/v1/rooms"),
      ).toBe(false);
    },
  },
  credentials: { variable: "WEBEX_TOKEN" },
  streaming: { prompt: "who is in Release train", tool: "list_members", answer: "bob@example.com" },
});

it("reads a thread's replies and adds a person to a room after the user approves", async () => {
  const webex = agent.service;
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const outage = webex.state.messages[0];
  const thread = await connection.send({ text: `replies to ${outage?.id} in Platform incidents`, contextId });
  expect(thread.text).toContain("↳");
  expect(thread.text).toContain("502s gone after the rollback");
  expect(thread.text).not.toContain("checkout is returning 502s");

  const asked = await connection.send({ text: "add Carol@Example.com to Release train", contextId });
  expect(asked.question).toContain('Add carol@example.com to the Webex room "Release train".');
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("Added Carol Data <carol@example.com> to Release train.");
  expect(webex.changes.at(-1)).toMatchObject({
    action: "add-member",
    membership: { roomId: webex.state.rooms[1]?.id, personEmail: "carol@example.com", isModerator: false },
  });
});

it("says which rooms it is in when a title matches none, and fails naming WEBEX_TOKEN when Webex refuses it", async () => {
  const missing = await agent.ask("who is in Finance");
  expect(missing.text).toContain('The agent is in no Webex room titled "Finance"');

  const wrong = "wrong-webex-token-1234";
  const refused = await agent.ask("which rooms am I in?", { WEBEX_TOKEN: wrong });
  expect(refused.state).toBe("failed");
  expect(refused.text).toContain("Webex refused the credentials (HTTP 401");
  expect(refused.text).toContain("check WEBEX_TOKEN");
  expect(refused.text).not.toContain(wrong);
});
