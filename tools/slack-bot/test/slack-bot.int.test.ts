import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  eventCallback,
  type FakeSlack,
  signedRequest,
  startFakeSlack,
} from "@switchboard-testing/fake-slack";
import { type OtlpReceiver, startOtlpReceiver } from "@switchboard-testing/otlp-receiver";
import { freePort } from "@switchboard-testing/test-agents";
import { browse, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlackBot } from "../src/app.js";
import { contextIdFor } from "../src/relay/conversation-id.js";
import { startTracing } from "../src/telemetry/tracing.js";
import {
  CONFIRM_LINK,
  confirmationFor,
  linkSlackUser,
  type RelayFleet,
  slackBotEnv,
  startBot,
  startRelayFleet,
  until,
} from "./relay-fleet.js";

const ALICE = "U0ALICE";
const BOB = "U0BOB";
const CHANNEL = "C0PLATFORM";
const SIGNING_SECRET = "slack-signing-secret-for-tests";
/**
 * Everyone may do everything but decide another user's change; Bob may approve Alice's changes in
 * the OPS project (the `approve` action, decided by the Jira agent where the change runs).
 */
const POLICIES = `
@id("everyone")
permit(principal, action in [Switchboard::Action::"reach", Switchboard::Action::"read",
  Switchboard::Action::"change", Switchboard::Action::"audit"], resource);
@id("bob-approves-alice-in-ops")
permit(principal == Switchboard::User::"bob", action == Switchboard::Action::"approve",
  resource in Jira::Project::"OPS") when { resource.requester == Switchboard::User::"alice" };
`;

describe("Switchboard in Slack: the relay with the real Bolt client, the fleet, and a linked identity", () => {
  const storage = testMongoEnv(uniqueDbName("slack-bot"));
  let idp: IdentityProvider;
  let slack: FakeSlack;
  let fleet: RelayFleet;
  let bot: SlackBot;
  let botPort: number;
  let socketEnv: NodeJS.ProcessEnv;
  /** Every process of the fleet, and the relay in this one, exports its spans here. */
  let receiver: OtlpReceiver;
  let tracing: { shutdown(): Promise<void> } | undefined;
  const mention = (text: string) => `<@${slack.workspace.botUserId}> ${text}`;

  beforeAll(async () => {
    const webPort = await freePort();
    botPort = await freePort();
    idp = await startIdentityProvider({
      webOrigin: `http://localhost:${webPort}`,
      users: {
        alice: { name: "Alice", email: "alice@example.com" },
        bob: { name: "Bob", email: "bob@example.com" },
      },
    });
    slack = await startFakeSlack({
      users: [
        { id: ALICE, name: "alice", email: "alice@example.com" },
        { id: BOB, name: "bob", email: "Bob@Example.com " },
      ],
    });
    receiver = await startOtlpReceiver();
    const otel = { ...receiver.env, OTEL_BSP_SCHEDULE_DELAY: "100" };
    // The relay runs in this process: its SDK reads the standard variables, as under `npm start`.
    Object.assign(process.env, otel);
    tracing = await startTracing("switchboard-slack-bot");
    const policyFile = join(mkdtempSync(join(tmpdir(), "slack-bot-policies-")), "policies.cedar");
    writeFileSync(policyFile, POLICIES);
    fleet = await startRelayFleet({
      storage,
      idp,
      webPort,
      slackBotPort: botPort,
      tokenIntervalMs: 15,
      env: { AUTHZ_POLICY_FILE: policyFile, ...otel },
    });
    socketEnv = slackBotEnv({
      slack,
      storage,
      idp,
      supervisorUrl: fleet.supervisorUrl,
      webUrl: fleet.webUrl,
      port: botPort,
    });
    bot = await startBot(socketEnv);
    await slack.waitForConnections(1);
  });
  afterAll(async () => {
    await bot?.stop();
    await fleet?.stop();
    await tracing?.shutdown();
    await Promise.all([slack?.close(), idp?.close(), receiver?.close()]);
  });

  /** The bot's last message in the thread once it no longer says it is working. */
  const answered = (thread: string, count: number) =>
    until(`answer #${count} in the thread`, () => {
      const replies = slack.botReplies(CHANNEL, thread).filter((m) => !m.text.includes("Working"));
      return replies.length >= count ? replies : undefined;
    });

  it("gives an unlinked user a one-time link through the web chat's sign-in, and links them once they confirm in Slack", async () => {
    const said = await slack.say(ALICE, CHANNEL, mention("jira: open issues in PLAT"));
    const whisper = await until("the link, shown to Alice only", () =>
      slack.workspace.ephemerals.find((e) => e.user === ALICE && e.text.includes("/slack/link/")),
    );
    expect(whisper.threadTs).toBe(said.ts);
    const [notice] = await answered(said.ts, 1);
    expect(notice?.text).toContain(`<@${ALICE}>`);
    expect(notice?.text).toContain("link your Slack account");
    // Nothing ran for an unlinked user.
    expect(fleet.llm.requests).toHaveLength(0);

    const link = /(http:\/\/\S+\/slack\/link\/\S+)/.exec(whisper.text)?.[1] ?? "";
    expect(link.startsWith(`${fleet.webUrl}/slack/link/`)).toBe(true);
    const mark = slack.workspace.ephemerals.length;
    const done = await browse(link, "alice");
    expect(done.status).toBe(200);
    expect(done.text).toContain("Confirm in Slack");
    expect(done.text).toContain("alice@example.com");
    // Signed in, not yet linked: only Alice's press in Slack links her.
    const question = await confirmationFor(slack, ALICE, mark);
    expect(question.threadTs).toBe(said.ts);
    expect(JSON.stringify(question.blocks)).toContain("Yes, this is me (alice@example.com)");
    await slack.pressEphemeral(ALICE, question, CONFIRM_LINK);
    await until("the linked notice", () =>
      slack.workspace.ephemerals.find((e) => e.user === ALICE && e.text.includes("You are linked")),
    );
    // The link works once.
    expect((await browse(link, "mallory")).status).toBe(404);
  });

  it("routes a mention to Jira, streams the answer into the thread, and continues the thread without a mention", async () => {
    const said = await slack.say(ALICE, CHANNEL, mention("jira: open issues in PLAT"));
    const [answer] = await answered(said.ts, 1);
    expect(answer?.text).toContain("PLAT-1");
    const edits = answer?.versions.map((v) => v.text) ?? [];
    expect(edits[0]).toContain("Working on it");

    // One trace: the relay's span for the mention, and the supervisor's and the Jira agent's turns under it.
    const contextId = contextIdFor("slack", {
      workspace: slack.workspace.teamId,
      channel: CHANNEL,
      thread: said.ts,
    });
    // Each process exports its spans in batches of its own, and the supervisor's hop span bears the
    // Jira turn's name too: wait for each turn from the service that runs it, not just any span.
    const turns = ["invoke_agent supervisor", "invoke_agent jira"];
    const turnSpans = [
      { name: "invoke_agent supervisor", service: "switchboard-supervisor" },
      { name: "invoke_agent jira", service: "switchboard-jira" },
    ];
    const spans = await receiver.waitFor((all) => {
      const relay = all.find((s) => s.name === "chat.turn" && s.attributes["a2a.context_id"] === contextId);
      const joined = all.filter((s) => s.traceId === relay?.traceId);
      return turnSpans.every(({ name, service }) =>
        joined.some((s) => s.name === name && s.service === service),
      );
    }, 20_000);
    const relay = spans.find((s) => s.name === "chat.turn" && s.attributes["a2a.context_id"] === contextId);
    expect(relay?.service).toBe("switchboard-slack-bot");
    const joined = spans.filter((s) => s.traceId === relay?.traceId);
    expect(joined.map((s) => s.name)).toEqual(expect.arrayContaining(turns));
    expect(joined.filter((s) => s.name === "invoke_agent jira").map((s) => s.service)).toContain(
      "switchboard-jira",
    );
    // Live progress: several edits of one message, naming the agent at work, before the answer.
    expect(edits.length).toBeGreaterThanOrEqual(3);
    expect(edits.some((text) => /jira/i.test(text) && text.includes("Working"))).toBe(true);

    // A reply in the thread, no mention: the same conversation, which the supervisor remembers.
    await slack.say(ALICE, CHANNEL, "what did I ask before?", { threadTs: said.ts });
    const [, followUp] = await answered(said.ts, 2);
    expect(followUp?.text).toContain("jira: open issues in PLAT");

    // The same conversation in Alice's web chat history, and in nobody else's.
    const history = async (user: string) => {
      const token = await signIn(idp, user);
      const answer = await fetch(`${fleet.webUrl}/api/conversations`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return JSON.stringify(await answer.json());
    };
    expect(await history("alice")).toContain("jira: open issues in PLAT");
    expect(await history("bob")).not.toContain("jira: open issues in PLAT");

    // Slack redelivers the mention to a second replica (as after a missed ack): it is answered once.
    const replica = await startBot({ ...socketEnv, PORT: String(await freePort()) });
    try {
      await slack.waitForConnections(2);
      await slack.deliver(
        eventCallback(slack.workspace, {
          type: "app_mention",
          user: ALICE,
          text: mention("jira: open issues in PLAT"),
          ts: said.ts,
          channel: CHANNEL,
        }),
        { connection: 1 },
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(slack.botReplies(CHANNEL, said.ts)).toHaveLength(2);
    } finally {
      await replica.stop();
    }
  });

  it("asks to confirm a change with buttons only the asker can press, across a restart of the bot", async () => {
    const said = await slack.say(ALICE, CHANNEL, mention("jira: create a bug in PLAT: Slack login fails"));
    const [question] = await answered(said.ts, 1);
    if (!question) throw new Error("no question in the thread");
    expect(JSON.stringify(question.blocks)).toContain("switchboard_approve");
    expect(question.text).toContain("Slack login fails");
    // What a second Slack client still shows after the press.
    const stale = structuredClone(question);
    const issuesBefore = fleet.jira.issues.length;

    // Bob cannot answer Alice's confirmation.
    await slack.press(BOB, question, "switchboard_approve");
    await until("Bob's refusal", () =>
      slack.workspace.ephemerals.find((e) => e.user === BOB && e.text.includes(`Only <@${ALICE}>`)),
    );
    expect(JSON.stringify(slack.workspace.find(CHANNEL, question.ts)?.blocks)).toContain(
      "switchboard_approve",
    );

    // The bot restarts between the question and the press: the confirmation lives in MongoDB.
    await bot.stop();
    bot = await startBot(socketEnv);
    await slack.waitForConnections(1);

    await slack.press(ALICE, question, "switchboard_approve");
    const [, created] = await answered(said.ts, 2);
    expect(created?.text).toMatch(/PLAT-\d+/);
    expect(fleet.jira.issues.length).toBe(issuesBefore + 1);
    const decided = slack.workspace.find(CHANNEL, question.ts);
    expect(JSON.stringify(decided?.blocks)).toContain(`Approved by <@${ALICE}>`);
    expect(JSON.stringify(decided?.blocks)).not.toContain("switchboard_approve");

    // A second press (an old client still showing the buttons) changes nothing.
    await slack.press(ALICE, stale, "switchboard_approve");
    await until("the already-answered note", () =>
      slack.workspace.ephemerals.find((e) => e.user === ALICE && e.text.includes("already answered")),
    );
    expect(fleet.jira.issues.length).toBe(issuesBefore + 1);
  });

  it("lets Bob approve Alice's change where the Jira agent's policy allows it, and refuses him elsewhere", async () => {
    // Bob links his Slack account once (in a thread of his own; Slack's email differs in case and
    // spacing only).
    const mark = slack.workspace.ephemerals.length;
    await slack.say(BOB, CHANNEL, mention("hello"));
    await linkSlackUser(slack, BOB, "bob", mark);
    const issuesBefore = fleet.jira.issues.length;

    // PLAT: no policy lets Bob decide. The Jira agent refuses his press, nothing is created, and
    // Alice is asked again (new buttons, saying why).
    const plat = await slack.say(ALICE, CHANNEL, mention("jira: create a bug in PLAT: not for Bob"));
    const [platQuestion] = await answered(plat.ts, 1);
    if (!platQuestion) throw new Error("no question in the thread");
    await slack.press(BOB, platQuestion, "switchboard_approve");
    const [, askedAgain] = await answered(plat.ts, 2);
    expect(askedAgain?.text).toMatch(
      /Not allowed: .*bob@example\.com.* may not approve or decline .*alice@example\.com.*'s change/,
    );
    expect(JSON.stringify(askedAgain?.blocks)).toContain("switchboard_approve");
    await until("Bob's refusal", () =>
      slack.workspace.ephemerals.find((e) => e.user === BOB && e.text.includes("does not let you decide")),
    );
    expect(JSON.stringify(slack.workspace.find(CHANNEL, platQuestion.ts)?.blocks)).toContain(
      `<@${BOB}> may not decide this change`,
    );
    expect(fleet.jira.issues.length).toBe(issuesBefore);

    // OPS: the policy lets Bob approve Alice's change. It runs as Alice, and the audit names Bob.
    const ops = await slack.say(ALICE, CHANNEL, mention("jira: create a bug in OPS: Bob approves"));
    const [opsQuestion] = await answered(ops.ts, 1);
    if (!opsQuestion) throw new Error("no question in the thread");
    await slack.press(BOB, opsQuestion, "switchboard_approve");
    const [, created] = await answered(ops.ts, 2);
    expect(created?.text).toMatch(/OPS-\d+/);
    expect(fleet.jira.issues.length).toBe(issuesBefore + 1);
    await until("the decided buttons", () =>
      JSON.stringify(slack.workspace.find(CHANNEL, opsQuestion.ts)?.blocks).includes(`Approved by <@${BOB}>`),
    );
    const token = await signIn(idp, "alice");
    const audit = (await (
      await fetch(`${fleet.supervisorUrl}/audit?agent=jira`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { lines: Array<Record<string, unknown>> };
    const attempt = audit.lines.findLast((line) => line.kind === "attempt" && line.tool === "create_issue");
    expect(attempt).toMatchObject({
      principal: { subject: "alice" },
      confirmedBy: "bob",
      resource: { project: "OPS" },
    });
    const denial = audit.lines.findLast((line) => line.kind === "denial" && line.tool === "create_issue");
    expect(denial).toMatchObject({
      principal: { subject: "bob" },
      requester: { subject: "alice" },
      resource: { project: "PLAT" },
    });
  });

  it("is ready once Socket Mode is connected, and says so", async () => {
    const ready = (await (await fetch(`http://127.0.0.1:${botPort}/ready`)).json()) as Record<string, string>;
    expect(ready).toMatchObject({ status: "ready", slack: "connected", mongodb: "up", supervisor: "up" });
  });

  it("says so in the thread when the supervisor is down", async () => {
    await bot.stop();
    const down = await startBot({ ...socketEnv, CAIPE_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      await slack.waitForConnections(1);
      const said = await slack.say(ALICE, CHANNEL, mention("jira: open issues in PLAT"));
      const [reply] = await answered(said.ts, 1);
      expect(reply?.text).toContain("can't reach Switchboard");
    } finally {
      await down.stop();
      bot = await startBot(socketEnv);
      await slack.waitForConnections(1);
    }
  });

  it("in HTTP mode answers signed events, and refuses forged, replayed and malformed ones with nothing run", async () => {
    const httpBot = await startBot({
      ...socketEnv,
      PORT: String(await freePort()),
      SLACK_INTEGRATION_BOT_MODE: "http",
      SLACK_INTEGRATION_SIGNING_SECRET: SIGNING_SECRET,
    });
    try {
      const events = `${httpBot.url}/slack/events`;
      const message = (ts: string) =>
        eventCallback(slack.workspace, {
          type: "app_mention",
          user: ALICE,
          text: mention("jira: open issues in PLAT"),
          ts,
          channel: CHANNEL,
        });
      const requestsBefore = fleet.llm.requests.length;
      const postsBefore = slack.calls.filter((c) => c.method === "chat.postMessage").length;

      const forged = await signedRequest(events, message(slack.workspace.nextTs()), {
        signingSecret: "not-the-secret",
      });
      expect(forged.status).toBe(401);
      const stale = await signedRequest(events, message(slack.workspace.nextTs()), {
        signingSecret: SIGNING_SECRET,
        timestamp: Math.floor(Date.now() / 1000) - 600,
      });
      expect(stale.status).toBe(401);
      const garbage = await signedRequest(events, undefined, {
        signingSecret: SIGNING_SECRET,
        raw: "{not json",
      });
      expect(garbage.status).toBe(400);
      const noUser = await signedRequest(
        events,
        eventCallback(slack.workspace, {
          type: "app_mention",
          text: mention("hi"),
          ts: "1.000001",
          channel: CHANNEL,
        }),
        { signingSecret: SIGNING_SECRET },
      );
      expect(noUser.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(fleet.llm.requests.length).toBe(requestsBefore);
      expect(slack.calls.filter((c) => c.method === "chat.postMessage").length).toBe(postsBefore);

      // A signed mention is answered; the same request sent again is answered once.
      const ts = slack.workspace.nextTs();
      slack.workspace.add({ channel: CHANNEL, ts, user: ALICE, text: mention("jira: open issues in PLAT") });
      const body = message(ts);
      expect((await signedRequest(events, body, { signingSecret: SIGNING_SECRET })).status).toBe(200);
      const [answer] = await answered(ts, 1);
      expect(answer?.text).toContain("PLAT-1");
      expect((await signedRequest(events, body, { signingSecret: SIGNING_SECRET })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(slack.botReplies(CHANNEL, ts)).toHaveLength(1);

      // /health, /ready and /metrics.
      expect((await fetch(`${httpBot.url}/health`)).status).toBe(200);
      const ready = (await (await fetch(`${httpBot.url}/ready`)).json()) as Record<string, string>;
      expect(ready).toMatchObject({ status: "ready", mongodb: "up", supervisor: "up" });
      const metrics = await (await fetch(`${httpBot.url}/metrics`)).text();
      expect(metrics).toMatch(/switchboard_chat_turns_total\{platform="slack",outcome="completed"\} [1-9]/);
    } finally {
      await httpBot.stop();
    }
  });
});
