import { join } from "node:path";
import { Writable } from "node:stream";
import { createLogger } from "@switchboard/common";
import {
  type FakeWebex,
  sparkSignature,
  startFakeWebex,
  type WebexMessage,
} from "@switchboard-testing/fake-webex";
import { freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The Slack bot's fleet (supervisor, a real Jira agent on the fake Jira, the scripted model): the same
// relay runs behind both bots.
import { type RelayFleet, startRelayFleet, until } from "../../slack-bot/test/relay-fleet.js";
import { startWebexBot, type WebexBot } from "../src/app.js";
import { readWebexBotSettings } from "../src/env.js";

const SECRET = "webex-webhook-secret-for-tests-0123456789";

describe("Switchboard in Webex: the bot against a Webex that signs its webhooks, the fleet and two users", () => {
  const storage = testMongoEnv(uniqueDbName("webex-bot"));
  let webex: FakeWebex;
  let fleet: RelayFleet;
  let bot: WebexBot;
  let space: string;
  /** Every line the bot logged, at debug level: what the secrets test reads. */
  const logs: string[] = [];

  beforeAll(async () => {
    webex = await startFakeWebex({
      users: [
        { name: "alice", email: "alice@example.com", displayName: "Alice" },
        { name: "bob", email: "bob@example.com", displayName: "Bob" },
      ],
    });
    space = webex.space("Platform");
    // Tokens a few milliseconds apart: a turn streams long enough to want more edits than Webex allows.
    fleet = await startRelayFleet({
      storage,
      webPort: await freePort(),
      slackBotPort: await freePort(),
      tokenIntervalMs: 15,
    });
    const port = await freePort();
    const settings = readWebexBotSettings({
      ...storage,
      PORT: String(port),
      HOST: "127.0.0.1",
      WEBEX_TOKEN: webex.bot.token,
      WEBEX_WEBHOOK_SECRET: SECRET,
      WEBEX_WEBHOOK_URL: `http://127.0.0.1:${port}`,
      WEBEX_API_URL: webex.apiUrl,
      CAIPE_URL: fleet.supervisorUrl,
      WEBEX_INTEGRATION_UPDATE_INTERVAL_MS: "50",
      WEBEX_INTEGRATION_TURN_TIMEOUT_SECONDS: "60",
    });
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    bot = await startWebexBot(
      settings,
      createLogger({ level: "debug", base: { agent: "webex-bot" }, destination }),
    );
  });
  afterAll(async () => {
    await bot?.stop();
    await fleet?.stop();
    await webex?.close();
  });

  const person = (name: string) => {
    const found = webex.people.find((one) => one.displayName.toLowerCase() === name);
    if (!found) throw new Error(`no ${name}`);
    return found;
  };
  /** The bot's replies in the thread once none says it is working, when there are `count`. */
  const answered = (thread: string, count: number) =>
    until(`answer #${count} in the thread`, () => {
      const replies = webex
        .botReplies(thread)
        .filter((m) => !m.text.includes("Working") && !m.attachments?.length);
      return replies.length >= count ? replies : undefined;
    });
  const cardIn = (thread: string) =>
    until("the confirmation card", () => webex.botReplies(thread).find((m) => m.attachments?.length));
  /** How many presses the bot refused so far. */
  const refusedDecisions = async () => {
    const text = await (await fetch(`${bot.url}/metrics`)).text();
    return Number(/kind="decision",outcome="refused"\} (\d+)/.exec(text)?.[1] ?? 0);
  };
  /** Waits until the bot's /metrics match `pattern` (a webhook is answered before it is handled), and `also` holds. */
  const metricShows = async (pattern: RegExp, also: () => Promise<boolean> = async () => true) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const text = await (await fetch(`${bot.url}/metrics`)).text();
      if (pattern.test(text) && (await also())) return;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${pattern} in /metrics:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const pressed = (card: WebexMessage, action: "switchboard_approve" | "switchboard_decline") => {
    const content = JSON.stringify(card.attachments);
    const confirmation = /"confirmation":"([^"]+)"/.exec(content)?.[1];
    return { action, confirmation };
  };

  it("registers its webhooks with its secret at start", () => {
    expect(webex.webhooks.map((hook) => [hook.resource, hook.targetUrl, hook.secret])).toEqual([
      ["messages", `${bot.url}/webex/events`, SECRET],
      ["attachmentActions", `${bot.url}/webex/events`, SECRET],
    ]);
  });

  it("answers a mention in the space's thread, streaming, and ignores its own messages", async () => {
    const { message: said } = await webex.say("alice", space, "jira: open issues in PLAT", { mention: true });
    const [answer] = await answered(said.id, 1);
    expect(answer?.text).toContain("PLAT-1");
    expect(answer?.parentId).toBe(said.id);
    expect(answer?.versions[0]).toContain("Working on it");
    expect(answer?.versions.length).toBeGreaterThanOrEqual(3);
    // Webex takes 10 edits of a message: progress stops at 8, the answer is the last.
    expect(answer?.versions.length).toBeLessThanOrEqual(10);
    expect(webex.requests.filter((r) => r.method === "PUT" && r.status !== 200)).toEqual([]);

    // Webex notified the bot of its own posts too: each was ignored (no turn, no reply to itself).
    await webex.settled();
    const own = webex.deliveries.filter((d) => JSON.parse(d.body).data.personId === webex.bot.id);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((d) => d.status === 204)).toBe(true);
    const requests = fleet.llm.requests.length;
    await metricShows(/switchboard_chat_events_total\{platform="webex",kind="message",outcome="own"\} [1-9]/);
    expect(webex.botReplies(said.id)).toHaveLength(1);
    expect(fleet.llm.requests.length).toBe(requests);

    // A follow-up in the thread (Webex tells a bot of group messages that mention it) is the same conversation.
    await webex.say("alice", space, "what did I ask before?", { mention: true, parentId: said.id });
    const [, followUp] = await answered(said.id, 2);
    expect(followUp?.text).toContain("jira: open issues in PLAT");
  });

  it("asks to confirm a change with a card only the asker can press: Bob is refused, Alice's press runs it once", async () => {
    const { message: said } = await webex.say(
      "alice",
      space,
      "jira: create a bug in PLAT: Webex login fails",
      {
        mention: true,
      },
    );
    const card = await cardIn(said.id);
    const [question] = await answered(said.id, 1);
    expect(question?.text).toContain("Webex login fails");
    const issuesBefore = fleet.jira.issues.length;
    const llmBefore = fleet.llm.requests.length;

    // Bob presses Approve on Alice's change: refused in a direct message, nothing runs, the card stays.
    await webex.press("bob", card, pressed(card, "switchboard_approve"));
    const refusal = await until("Bob's refusal", () =>
      webex.directTo("bob").find((m) => m.text.includes(`Only <@personId:${person("alice").id}>`)),
    );
    expect(refusal.roomType).toBe("direct");
    expect(refusal.text).not.toContain("Slack");
    expect(fleet.jira.issues.length).toBe(issuesBefore);
    expect(fleet.llm.requests.length).toBe(llmBefore);
    expect(webex.botReplies(said.id).some((m) => m.id === card.id)).toBe(true);

    // Alice approves: the issue is created once, the message says who approved, the card is gone.
    const mark = webex.deliveries.length;
    await webex.press("alice", card, pressed(card, "switchboard_approve"));
    const [, created] = await answered(said.id, 2);
    expect(created?.text).toMatch(/PLAT-\d+/);
    expect(fleet.jira.issues.length).toBe(issuesBefore + 1);
    expect(question?.text).toContain(`Approved by <@personId:${person("alice").id}>`);
    expect(webex.botReplies(said.id).some((m) => m.id === card.id)).toBe(false);

    // Webex delivers Alice's press again (a retry, or someone replaying the signed request): it runs once.
    const press = webex.deliveries
      .slice(mark)
      .find((d) => JSON.parse(d.body).resource === "attachmentActions");
    if (!press) throw new Error("no attachment action delivered");
    expect(await webex.deliverRaw(press.targetUrl, press.body, press.signature)).toBe(204);
    await metricShows(/kind="decision",outcome="duplicate"\} [1-9]/);
    expect(fleet.jira.issues.length).toBe(issuesBefore + 1);
    expect(webex.botReplies(said.id).filter((m) => !m.text.includes("Working"))).toHaveLength(2);
  });

  it("refuses forged and unsigned webhooks with nothing run, and answers a signed one once however often it comes", async () => {
    const { message: said, deliveries } = await webex.say("alice", space, "jira: open issues in PLAT", {
      mention: true,
      held: true,
    });
    const [delivery] = deliveries;
    if (!delivery) throw new Error("no delivery held");
    const llmBefore = fleet.llm.requests.length;
    const messageFetches = () => webex.requests.filter((r) => r.path === `/v1/messages/${said.id}`).length;

    const forged = await webex.deliverRaw(
      delivery.targetUrl,
      delivery.body,
      sparkSignature("not-the-secret", delivery.body),
    );
    expect(forged).toBe(401);
    expect(await webex.deliverRaw(delivery.targetUrl, delivery.body, undefined)).toBe(401);
    // The signature of another body (a notification tampered with after signing).
    const tampered = delivery.body.replace(said.id, webex.messages[0]?.id ?? "x");
    expect(await webex.deliverRaw(delivery.targetUrl, tampered, delivery.signature)).toBe(401);
    expect(await webex.deliverRaw(delivery.targetUrl, "{not json", sparkSignature(SECRET, "{not json"))).toBe(
      400,
    );
    expect(messageFetches()).toBe(0);
    expect(fleet.llm.requests.length).toBe(llmBefore);
    expect(webex.botReplies(said.id)).toHaveLength(0);

    // Webex's own delivery, then the same signed request twice more: one answer.
    expect(await webex.release([delivery])).toEqual([204]);
    const [answer] = await answered(said.id, 1);
    expect(answer?.text).toContain("PLAT-1");
    expect(await webex.deliverRaw(delivery.targetUrl, delivery.body, delivery.signature)).toBe(204);
    expect(await webex.deliverRaw(delivery.targetUrl, delivery.body, delivery.signature)).toBe(204);
    await metricShows(/kind="message",outcome="duplicate"\} [2-9]/);
    expect(webex.botReplies(said.id)).toHaveLength(1);
  });

  it("lets no copied card decide Alice's change: Bob posting her card's buttons as his own, and pressing them, runs nothing", async () => {
    const { message: said } = await webex.say("alice", space, "jira: create a bug in PLAT: copied card", {
      mention: true,
    });
    const card = await cardIn(said.id);
    const issuesBefore = fleet.jira.issues.length;
    const llmBefore = fleet.llm.requests.length;
    // Bob sees the card's content in the space and posts the same card himself, then presses "Approve" on it.
    const posted = await fetch(`${webex.apiUrl}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${person("bob").token}`, "content-type": "application/json" },
      body: JSON.stringify({ roomId: space, markdown: "approve this", attachments: card.attachments }),
    });
    expect(posted.status).toBe(200);
    const { id: copyId } = (await posted.json()) as { id: string };
    const copy = webex.messages.find((m) => m.id === copyId);
    if (!copy) throw new Error("no copied card");
    const refusedBefore = await refusedDecisions();
    await webex.press("alice", copy, pressed(card, "switchboard_approve"));
    await webex.press("bob", copy, pressed(card, "switchboard_approve"));
    await metricShows(/./, async () => (await refusedDecisions()) >= refusedBefore + 2);
    expect(fleet.jira.issues.length).toBe(issuesBefore);
    expect(fleet.llm.requests.length).toBe(llmBefore);
    // The real card still waits for Alice.
    expect(webex.botReplies(said.id).some((m) => m.id === card.id)).toBe(true);
  });

  it("keeps its token and webhook secret out of its logs", () => {
    const all = logs.join("");
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(webex.bot.token);
    expect(all).not.toContain(SECRET);
  });

  it("stops at start when Webex refuses its token, naming the setting, with neither token nor secret in its output", async () => {
    const wrongToken = "wrong-webex-token-SECRET-9f3a";
    const started = startAgentProcess(join(import.meta.dirname, ".."), {
      env: {
        ...storage,
        WEBEX_TOKEN: wrongToken,
        WEBEX_WEBHOOK_SECRET: SECRET,
        WEBEX_API_URL: webex.apiUrl,
        CAIPE_URL: fleet.supervisorUrl,
      },
    });
    const failure = await started.then(
      () => {
        throw new Error("the bot started with a refused token");
      },
      (error: Error) => error.message,
    );
    expect(failure).toMatch(
      /exited with code 1[\s\S]*Webex refused the bot's access token[\s\S]*WEBEX_TOKEN/,
    );
    expect(failure).not.toContain(wrongToken);
    expect(failure).not.toContain(SECRET);
  });

  it("says what to set when its settings are missing", () => {
    expect(() => readWebexBotSettings({ ...storage, WEBEX_WEBHOOK_SECRET: SECRET })).toThrow(/WEBEX_TOKEN/);
    expect(() => readWebexBotSettings({ ...storage, WEBEX_TOKEN: "t" })).toThrow(/WEBEX_WEBHOOK_SECRET/);
    expect(() =>
      readWebexBotSettings({ ...storage, WEBEX_TOKEN: "t", WEBEX_WEBHOOK_SECRET: "short" }),
    ).toThrow(/WEBEX_WEBHOOK_SECRET/);
  });
});
