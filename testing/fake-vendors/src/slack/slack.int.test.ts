import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeSlack, startFakeSlack } from "./index.js";

// The real @slack/web-api client against the fake: what it sends and what it gets back.
describe("fake Slack", () => {
  let slack: FakeSlack;
  let client: WebClient;

  beforeAll(async () => {
    slack = await startFakeSlack();
    client = new WebClient(slack.token, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterAll(() => slack.close());

  it("lists channels without the archived ones and reads a channel's history, newest first", async () => {
    const { channels = [] } = await client.conversations.list({ exclude_archived: true, limit: 200 });
    expect(channels.map((one) => one.name)).toEqual(["platform-team", "incidents", "random"]);
    const { messages = [] } = await client.conversations.history({ channel: "C0INCIDENT", limit: 2 });
    expect(messages.map((one) => one.user)).toEqual(["U0ALICE", "U0BOB"]);
    expect(slack.requests.at(-1)?.body).toMatchObject({ channel: "C0INCIDENT", limit: "2" });
  });

  it("refuses a wrong token and channels the bot is not in, as Slack's ok:false errors", async () => {
    const stranger = new WebClient("xoxb-wrong", { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
    await expect(stranger.conversations.list()).rejects.toMatchObject({
      data: { ok: false, error: "invalid_auth" },
    });
    await expect(client.conversations.history({ channel: "C0RANDOM01" })).rejects.toMatchObject({
      data: { error: "not_in_channel" },
    });
  });

  it("posts a message that then leads the channel's history", async () => {
    const posted = await client.chat.postMessage({ channel: "C0PLATFORM", text: "deploy freeze from 17:00" });
    expect(posted).toMatchObject({ ok: true, channel: "C0PLATFORM" });
    const { messages = [] } = await client.conversations.history({ channel: "C0PLATFORM" });
    expect(messages[0]).toMatchObject({ text: "deploy freeze from 17:00", user: "U0BOT" });
    await expect(client.chat.postMessage({ channel: "C0OLDDEPLO", text: "x" })).rejects.toMatchObject({
      data: { error: "is_archived" },
    });
    expect(slack.posted).toHaveLength(1);
  });
});
