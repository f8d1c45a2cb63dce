import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { startFakeSlack } from "@switchboard-testing/fake-vendors";
import { callTool } from "@switchboard-testing/test-llm";
import { expect, it } from "vitest";

// The conformance suite against the fake Slack Web API, which the agent reaches through the real
// @slack/web-api client; this agent's own cases follow it.
const agent = agentConformance({
  name: "slack",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["slack_channels", "slack_changes"],
  description: "Slack channels",
  service: {
    start: () => startFakeSlack(),
    env: (slack) => ({ SLACK_API_URL: slack.apiUrl, SLACK_BOT_TOKEN: slack.token }),
    requests: (slack) => slack.requests.length,
  },
  llmRules: [
    {
      lastUser: /^what happened in #?([\w-]+)\??$/i,
      reply: (_r, { match }) => callTool("read_channel", { channel: `#${match?.[1]}` }),
    },
    {
      lastUser: /^channels about ([\w-]+)$/i,
      reply: (_r, { match }) => callTool("list_channels", { query: match?.[1] }),
    },
    {
      lastUser: /^post to (#?[\w-]+): (.+)$/i,
      reply: (_r, { match }) => callTool("post_message", { channel: match?.[1], text: match?.[2] }),
    },
  ],
  fallback: "I can find Slack channels, read them and post messages.",
  read: {
    prompt: "what happened in #incidents?",
    answer: [
      /#incidents, last 3 messages:/,
      /\] Alice Oncall: checkout-api 5xx rate above 5% since 09:10\n.*\] Bob Secondary: rolling back checkout-api to v41/,
    ],
    check: (slack) => {
      const history = slack.requests.find((request) => request.path === "/api/conversations.history");
      expect(history?.body).toMatchObject({ channel: "C0INCIDENT" });
    },
  },
  change: {
    prompt: "post to #platform-team: deploy freeze from 17:00",
    question: 'Post to #platform-team: "deploy freeze from 17:00"',
    applied: (slack) => slack.posted,
    answer: "Posted to #platform-team",
    checkPending: (slack) => expect(slack.posted).toHaveLength(0),
    check: (_slack, _answer, posted) =>
      expect(posted).toMatchObject({ channel: "C0PLATFORM", text: "deploy freeze from 17:00" }),
  },
  decline: {
    prompt: "post to incidents: all clear",
    question: 'Post to #incidents: "all clear"',
    check: (slack) => expect(slack.posted.some((one) => one.text === "all clear")).toBe(false),
  },
  credentials: { variable: "SLACK_BOT_TOKEN" },
  streaming: { prompt: "channels about incident", tool: "list_channels", answer: "#incidents (C0INCIDENT" },
  pythonPeer: { prompt: "channels about platform", answer: "#platform-team" },
});

it("says to invite the bot when it is not in the channel, and posts nothing there", async () => {
  const connection = await agent.connect();
  const contextId = agent.contextId();
  const read = await connection.send({ text: "what happened in #random?", contextId });
  expect(read.text).toContain("The Slack bot is not a member of that channel: invite it with /invite");

  const asked = await connection.send({ text: "post to random: hello", contextId });
  const done = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
  expect(done.text).toContain("not a member of that channel");
  expect(agent.service.posted.filter((one) => one.channel === "C0RANDOM01")).toHaveLength(0);
});

it("lists channels with whether the bot is in them, leaving archived ones out", async () => {
  const { text } = await agent.ask("channels about d");
  expect(text).toContain("#random (C0RANDOM01, public, bot not a member) — Anything");
  expect(text).not.toContain("deploys-2023");
});

it("fails the turn naming SLACK_BOT_TOKEN when Slack refuses the token, without showing it", async () => {
  const wrong = "xoxb-revoked-0000-not-the-bot-token";
  const result = await agent.ask("what happened in #incidents?", { SLACK_BOT_TOKEN: wrong });
  expect(result.state).toBe("failed");
  expect(result.text).toContain("Slack refused the token (invalid_auth): check SLACK_BOT_TOKEN");
  expect(result.text).not.toContain(wrong);
});
