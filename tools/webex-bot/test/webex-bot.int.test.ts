import { createHmac } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { createLogger } from "@switchboard/common";
import {
  type FakeWebex,
  sparkSignature,
  startFakeWebex,
  type WebexMessage,
} from "@switchboard-testing/fake-webex";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { browse, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The Slack bot's fleet (supervisor, a real Jira agent on the fake Jira, the web chat, the scripted
// model, signing in at the identity provider): the same relay runs behind both bots.
import {
  type RelayFleet,
  repoRoot,
  SEALING_KEY,
  startRelayFleet,
  until,
} from "../../slack-bot/test/relay-fleet.js";
import { startWebexBot, type WebexBot } from "../src/app.js";
import { readWebexBotSettings } from "../src/env.js";

const SECRET = "webex-webhook-secret-for-tests-0123456789";
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
@id("bob-approves-the-trigger")
permit(principal == Switchboard::User::"bob", action == Switchboard::Action::"approve", resource)
  when { resource.requester == Switchboard::User::"triggers-webex" };
`;
/** The trigger receiver's delivery secret, and its task: a change whose question goes to a Webex space. */
const HOOK_SECRET = "trigger-hook-secret-for-webex-tests";
const TRIGGER_CLIENT = { clientId: "triggers-webex", clientSecret: "triggers-webex-secret" };
const CONFIRM_LINK = "switchboard_link_confirm";
const CANCEL_LINK = "switchboard_link_cancel";

describe("Switchboard in Webex: the bot against a Webex that signs its webhooks, the fleet, sign-in and two users", () => {
  const storage = testMongoEnv(uniqueDbName("webex-bot"));
  let idp: IdentityProvider;
  let webex: FakeWebex;
  let fleet: RelayFleet;
  let bot: WebexBot;
  let space: string;
  /** The trigger receiver (tools/triggers), acting as its own client, its answers posted as the bot. */
  let triggers: AgentProcess;
  /** Every line the bot logged, at debug level: what the secrets test reads. */
  const logs: string[] = [];

  beforeAll(async () => {
    const [webPort, port] = [await freePort(), await freePort()];
    [idp, webex] = await Promise.all([
      startIdentityProvider({
        webOrigin: `http://localhost:${webPort}`,
        users: {
          alice: { name: "Alice", email: "alice@example.com" },
          bob: { name: "Bob", email: "bob@example.com" },
          mallory: { name: "Mallory", email: "mallory@example.com" },
        },
        serviceClients: [TRIGGER_CLIENT],
      }),
      startFakeWebex({
        users: [
          { name: "alice", email: "alice@example.com", displayName: "Alice" },
          // Webex's email differs from the sign-in's in case only.
          { name: "bob", email: "Bob@Example.com", displayName: "Bob" },
        ],
      }),
    ]);
    space = webex.space("Platform");
    const policyFile = join(mkdtempSync(join(tmpdir(), "webex-bot-policies-")), "policies.cedar");
    writeFileSync(policyFile, POLICIES);
    // Tokens a few milliseconds apart: a turn streams long enough to want more edits than Webex allows.
    // The web chat offers the bot's link pages (WEBEX_BOT_URL), as npm start wires it.
    fleet = await startRelayFleet({
      storage,
      idp,
      webPort,
      slackBotPort: await freePort(),
      tokenIntervalMs: 15,
      env: { AUTHZ_POLICY_FILE: policyFile, WEBEX_BOT_URL: `http://127.0.0.1:${port}` },
    });
    const tasksFile = join(mkdtempSync(join(tmpdir(), "webex-bot-triggers-")), "triggers.yaml");
    writeFileSync(
      tasksFile,
      `tasks:
  - id: file-bug
    name: File a bug
    prompt: "jira: create a bug in PLAT: {{summary}}"
    trigger: { type: webhook, provider: generic_hmac, secret_env: HOOK_SECRET }
    deliver_to: [{ webex: { room_id: "${space}" } }]
`,
    );
    // Started beside the bot, on a port chosen first, so the bot knows where to pass presses on.
    const triggersPort = await freePort();
    const startingTriggers = startAgentProcess(join(repoRoot, "tools", "triggers"), {
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: "warn",
        ...storage,
        HOST: "127.0.0.1",
        PORT: String(triggersPort),
        TRIGGERS_CONFIG_FILE: tasksFile,
        HOOK_SECRET,
        CAIPE_URL: fleet.supervisorUrl,
        WEBEX_INTEGRATION_BOT_ACCESS_TOKEN: webex.bot.token,
        WEBEX_API_URL: webex.apiUrl,
        AUTH_MODE: "jwt",
        AUTH_JWKS_URL: idp.jwksUrl,
        AUTH_ISSUER: idp.issuer,
        AUTH_AUDIENCE: idp.audience,
        DYNAMIC_AGENTS_OAUTH2_TOKEN_URL: idp.tokenUrl,
        DYNAMIC_AGENTS_OAUTH2_CLIENT_ID: TRIGGER_CLIENT.clientId,
        DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET: TRIGGER_CLIENT.clientSecret,
        DYNAMIC_AGENTS_OAUTH2_SCOPE: "switchboard",
      },
    });
    const settings = readWebexBotSettings({
      TRIGGERS_URL: `http://127.0.0.1:${triggersPort}`,
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
      CAIPE_UI_BASE_URL: fleet.webUrl,
      AUTH_MODE: "jwt",
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_SCOPE: idp.scope,
      CREDENTIALS_ENCRYPTION_KEY: SEALING_KEY,
      // Forget-me (DELETE /me) verifies the user's token as the agents do.
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
    });
    const destination = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    [bot, triggers] = await Promise.all([
      startWebexBot(settings, createLogger({ level: "debug", base: { agent: "webex-bot" }, destination })),
      startingTriggers,
    ]);
  });
  afterAll(async () => {
    await Promise.all([bot?.stop(), triggers?.kill("SIGTERM")]);
    await fleet?.stop();
    await Promise.all([webex?.close(), idp?.close()]);
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

  /** The newest one-time link sent to `who` directly, after `since` of their direct messages. */
  const linkSentTo = async (who: string, since = 0) => {
    const sent = await until(`the link sent to ${who}`, () =>
      webex
        .directTo(who)
        .slice(since)
        .findLast((m) => m.text.includes("/webex/link/")),
    );
    const link = /(http:\/\/\S+\/webex\/link\/[\w-]+)/.exec(sent.text)?.[1];
    if (!link) throw new Error(`No link in: ${sent.text}`);
    return link;
  };
  /** The "Yes, this is me" card sent to `who`, after `since` of their direct messages. */
  const linkCardFor = (who: string, since = 0) =>
    until(`the link confirmation card sent to ${who}`, () =>
      webex
        .directTo(who)
        .slice(since)
        .findLast((m) => JSON.stringify(m.attachments ?? []).includes(CONFIRM_LINK)),
    );
  const linkPressed = (card: WebexMessage, action: string) => ({
    action,
    link: /"link":"([^"]+)"/.exec(JSON.stringify(card.attachments))?.[1],
  });
  /** Links `who` the whole way, as a person would: the link sent to them opened and signed in, then "Yes, this is me". */
  const linkUser = async (who: string, since: number) => {
    const link = await linkSentTo(who, since);
    const mark = webex.directTo(who).length;
    const page = await browse(link, who);
    expect(page.status, page.text).toBe(200);
    const card = await linkCardFor(who, mark);
    await webex.press(who, card, linkPressed(card, CONFIRM_LINK));
    await until(`${who}'s linked notice`, () =>
      webex
        .directTo(who)
        .slice(mark)
        .find((m) => m.text.includes("You are linked")),
    );
    return link;
  };

  it("registers its webhooks with its secret at start", () => {
    expect(webex.webhooks.map((hook) => [hook.resource, hook.targetUrl, hook.secret])).toEqual([
      ["messages", `${bot.url}/webex/events`, SECRET],
      ["attachmentActions", `${bot.url}/webex/events`, SECRET],
    ]);
  });

  it("gives an unlinked user a one-time link through the web chat's sign-in, and links them once they confirm in Webex", async () => {
    const llmBefore = fleet.llm.requests.length;
    const { message: said } = await webex.say("alice", space, "jira: open issues in PLAT", { mention: true });
    // Nothing runs for an unlinked user: a word in the thread, the link in a direct message.
    const notice = await until("the link notice in the thread", () =>
      webex.botReplies(said.id).find((m) => m.text.includes("link your Webex account")),
    );
    expect(notice.text).not.toContain("Slack");
    const link = await linkSentTo("alice");
    expect(link.startsWith(`${fleet.webUrl}/webex/link/`)).toBe(true);
    expect(fleet.llm.requests.length).toBe(llmBefore);

    const mark = webex.directTo("alice").length;
    const page = await browse(link, "alice");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Confirm in Webex");
    // Signed in, not yet linked: only Alice's press of the card sent to her links her.
    const card = await linkCardFor("alice", mark);
    expect(card.roomType).toBe("direct");
    expect(JSON.stringify(card.attachments)).toContain("Yes, this is me (alice@example.com)");
    await webex.press("alice", card, linkPressed(card, CONFIRM_LINK));
    await until("the linked notice", () =>
      webex.directTo("alice").find((m) => m.text.includes("You are linked: Switchboard now acts as Alice")),
    );
    // The card has done its work, and the link works once.
    await until("the card gone", () =>
      webex.requests.some((r) => r.method === "DELETE" && r.path === `/v1/messages/${card.id}`),
    );
    expect((await browse(link, "mallory")).status).toBe(404);
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

  it("lets Bob approve Alice's change where the Jira agent's policy allows it, and refuses him elsewhere", async () => {
    // Bob links his Webex account once (Webex's email differs from the sign-in's in case only).
    const mark = webex.directTo("bob").length;
    await webex.say("bob", space, "hello", { mention: true });
    await linkUser("bob", mark);
    const issuesBefore = fleet.jira.issues.length;

    // PLAT: no policy lets Bob decide. The Jira agent refuses his press, nothing is created, and
    // Alice is asked again (a new card, saying why).
    const { message: plat } = await webex.say("alice", space, "jira: create a bug in PLAT: not for Bob", {
      mention: true,
    });
    const platCard = await cardIn(plat.id);
    const [platQuestion] = await answered(plat.id, 1);
    await webex.press("bob", platCard, pressed(platCard, "switchboard_approve"));
    const [, askedAgain] = await answered(plat.id, 2);
    expect(askedAgain?.text).toMatch(
      /Not allowed: .*bob@example\.com.* may not approve or decline .*alice@example\.com.*'s change/,
    );
    const newCard = await until("the new card", () =>
      webex.botReplies(plat.id).find((m) => m.attachments?.length && m.id !== platCard.id),
    );
    expect(JSON.stringify(newCard.attachments)).toContain("switchboard_approve");
    await until("Bob's refusal", () =>
      webex.directTo("bob").find((m) => m.text.includes("does not let you decide")),
    );
    expect(platQuestion?.text).toContain(`<@personId:${person("bob").id}> may not decide this change`);
    expect(fleet.jira.issues.length).toBe(issuesBefore);

    // OPS: the policy lets Bob approve Alice's change. It runs as Alice, and the audit names Bob.
    const { message: ops } = await webex.say("alice", space, "jira: create a bug in OPS: Bob approves", {
      mention: true,
    });
    const opsCard = await cardIn(ops.id);
    const [opsQuestion] = await answered(ops.id, 1);
    await webex.press("bob", opsCard, pressed(opsCard, "switchboard_approve"));
    const [, created] = await answered(ops.id, 2);
    expect(created?.text).toMatch(/OPS-\d+/);
    expect(fleet.jira.issues.length).toBe(issuesBefore + 1);
    await until("the decided message", () =>
      opsQuestion?.text.includes(`Approved by <@personId:${person("bob").id}>`),
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
  });

  it("links nobody through a forwarded link, a copied card, a replayed or forged sign-in", async () => {
    const space2 = webex.space("Links");
    // Alice is forgotten, so she is unlinked again: the bot's forget-me, with her own token (the web
    // chat's DELETE /api/me calls it so; this fleet's web chat also names a Slack relay that is not running).
    expect((await fetch(`${bot.url}/me`, { method: "DELETE" })).status).toBe(401);
    const token = await signIn(idp, "alice");
    const forgot = await fetch(`${bot.url}/me`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(await forgot.json()).toEqual({ agent: "webex-bot", chatAccounts: 1 });
    const llmBefore = fleet.llm.requests.length;
    let mark = webex.directTo("alice").length;
    await webex.say("alice", space2, "jira: open issues in PLAT", { mention: true });
    const forwarded = await linkSentTo("alice", mark);
    expect(fleet.llm.requests.length).toBe(llmBefore);

    // Mallory gets Alice's link and signs in behind it: another email, nothing linked, no card.
    mark = webex.directTo("alice").length;
    const stolen = await browse(forwarded, "mallory");
    expect(stolen.status).toBe(400);
    expect(stolen.text).toContain("a link works only for the Webex account it was made for");
    // A sign-in's return nobody started, and the used link again: nothing.
    const forged = await fetch(`${fleet.webUrl}/webex/link/callback?state=forged&code=forged`);
    expect(forged.status).toBe(400);
    expect((await browse(forwarded, "alice")).status).toBe(404);
    expect(
      webex
        .directTo("alice")
        .slice(mark)
        .some((m) => m.attachments?.length),
    ).toBe(false);

    // A fresh link, signed in by Alice: the card is hers. Bob copies it into the space and presses
    // "Yes" on his copy (and Alice on it too): a card the bot did not post links nobody.
    await webex.say("alice", space2, "jira: open issues in PLAT", { mention: true });
    const link = await linkSentTo("alice", mark);
    const before = webex.directTo("alice").length;
    expect((await browse(link, "alice")).status).toBe(200);
    const card = await linkCardFor("alice", before);
    const posted = await fetch(`${webex.apiUrl}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${person("bob").token}`, "content-type": "application/json" },
      body: JSON.stringify({ roomId: space2, markdown: "is this you?", attachments: card.attachments }),
    });
    const { id: copyId } = (await posted.json()) as { id: string };
    const copied = webex.messages.find((m) => m.id === copyId);
    if (!copied) throw new Error("no copied card");
    const linkedNotices = () =>
      webex.directTo("alice").filter((m) => m.text.includes("You are linked")).length;
    const linkedBefore = linkedNotices();
    await webex.press("bob", copied, linkPressed(card, CONFIRM_LINK));
    await webex.press("alice", copied, linkPressed(card, CONFIRM_LINK));
    await metricShows(/kind="link",outcome="refused"\} [2-9]/);
    expect(linkedNotices()).toBe(linkedBefore);
    // Bob cannot press the card in Alice's direct space at all (Webex shows it to its members only).
    await expect(webex.press("bob", card, linkPressed(card, CONFIRM_LINK))).rejects.toThrow();
    // Alice says "No, this is not me": the sign-in is dropped; her "Yes" after that finds nothing.
    await webex.press("alice", card, linkPressed(card, CANCEL_LINK));
    await until("the dropped notice", () =>
      webex.directTo("alice").find((m) => m.text.startsWith("Nothing was linked")),
    );
    await metricShows(/kind="link",outcome="canceled"\} 1/);
    expect(linkedNotices()).toBe(linkedBefore);
    expect(fleet.llm.requests.length).toBe(llmBefore);

    // Linked again for real, her next question is answered as her.
    mark = webex.directTo("alice").length;
    await webex.say("alice", space2, "hello again", { mention: true });
    await linkUser("alice", mark);
    const { message: asked } = await webex.say("alice", space2, "jira: open issues in PLAT", {
      mention: true,
    });
    const [answer] = await answered(asked.id, 1);
    expect(answer?.text).toContain("PLAT-1");
  });

  it("asks a triggered run's change with a card only the approver the policy names can press, passing presses on to the receiver", async () => {
    // A signed delivery starts the run; its change (a Jira bug) waits, asked in the space as a card.
    const body = JSON.stringify({ summary: "Rotate the webex cert" });
    const t = String(Math.floor(Date.now() / 1000));
    const started = await fetch(`${triggers.url}/api/v1/hooks/file-bug`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-webhook-timestamp": t,
        "x-webhook-signature-256": `sha256=${createHmac("sha256", HOOK_SECRET).update(`${t}.${body}`).digest("hex")}`,
      },
      body,
    });
    expect(started.status).toBe(202);
    const { run_id: runId } = (await started.json()) as { run_id: string };
    const card = await until("the run's card", () =>
      webex.messages.find(
        (m) =>
          m.roomId === space &&
          m.personId === webex.bot.id &&
          JSON.stringify(m.attachments ?? []).includes(`trigger:${runId}`),
      ),
    );
    expect(card.text).toMatch(/waits for an approver the policy names[\s\S]*Rotate the webex cert/);
    expect(JSON.stringify(card.attachments)).toContain("Rotate the webex cert");
    const lead = await signIn(idp, "alice");
    const runOf = async () =>
      (
        (await (
          await fetch(`${triggers.url}/api/v1/runs`, { headers: { authorization: `Bearer ${lead}` } })
        ).json()) as {
          runs: Array<{ run_id: string; status: string; confirmation?: { decided_by?: string } }>;
        }
      ).runs.find((run) => run.run_id === runId);
    // Asked first, then recorded as waiting: a press in between would find nothing waiting yet.
    while ((await runOf())?.status !== "input-required")
      await new Promise((resolve) => setTimeout(resolve, 25));
    const filed = () => fleet.jira.issues.filter((issue) => issue.summary.includes("Rotate the webex cert"));

    // A forged press (signed with another secret) is refused before anything is read.
    const forged = JSON.stringify({
      resource: "attachmentActions",
      event: "created",
      data: { id: "forged-action", personId: person("bob").id, roomId: space },
    });
    expect(
      await webex.deliverRaw(`${bot.url}/webex/events`, forged, sparkSignature("not-the-secret", forged)),
    ).toBe(401);

    // Alice is linked, but no policy names her for the trigger's changes: refused by the agent, told so directly.
    const aliceMark = webex.directTo("alice").length;
    await webex.press("alice", card, pressed(card, "switchboard_approve"));
    const refusal = await until("Alice's refusal", () =>
      webex
        .directTo("alice")
        .slice(aliceMark)
        .find((m) => m.text.includes("may not approve or decline")),
    );
    expect(refusal.text).toContain("triggers-webex");
    expect(filed()).toHaveLength(0);
    expect((await runOf())?.status).toBe("input-required");

    // Bob, whom the policy names, approves: the change runs once and the space is told.
    const bobMark = webex.directTo("bob").length;
    const pressMark = webex.deliveries.length;
    await webex.press("bob", card, pressed(card, "switchboard_approve"));
    await until("Bob's approval", () =>
      webex
        .directTo("bob")
        .slice(bobMark)
        .find((m) => m.text.startsWith("Approved")),
    );
    expect(filed()).toHaveLength(1);
    const done = await runOf();
    expect(done?.status).toBe("success");
    expect(done?.confirmation?.decided_by).toBe("bob");
    await until("the answer in the space", () =>
      webex.messages.find(
        (m) =>
          m.roomId === space &&
          m.personId === webex.bot.id &&
          /PLAT-\d+/.test(m.text) &&
          m.text.includes("File a bug"),
      ),
    );

    // Bob's signed press delivered again, and a second press: nothing more runs.
    const press = webex.deliveries
      .slice(pressMark)
      .find((d) => JSON.parse(d.body).resource === "attachmentActions");
    if (!press) throw new Error("no attachment action delivered");
    expect(await webex.deliverRaw(press.targetUrl, press.body, press.signature)).toBe(204);
    await metricShows(/kind="decision",outcome="duplicate"\} [2-9]/);
    const again = webex.directTo("bob").length;
    await webex.press("bob", card, pressed(card, "switchboard_approve"));
    await until("Bob told it is decided", () =>
      webex
        .directTo("bob")
        .slice(again)
        .find((m) => m.text.length > 0),
    );
    expect(filed()).toHaveLength(1);
  });

  it("keeps its token, webhook secret and users' tokens out of its logs", () => {
    const all = logs.join("");
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(webex.bot.token);
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(SEALING_KEY);
    expect(all).not.toMatch(/eyJ[\w-]+\.eyJ/);
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
    expect(() =>
      readWebexBotSettings({ ...storage, WEBEX_TOKEN: "t", WEBEX_WEBHOOK_SECRET: SECRET, AUTH_MODE: "jwt" }),
    ).toThrow(/OIDC_ISSUER and OIDC_CLIENT_ID .* CREDENTIALS_ENCRYPTION_KEY/);
    expect(() => readWebexBotSettings({ ...storage, WEBEX_WEBHOOK_SECRET: SECRET })).toThrow(/WEBEX_TOKEN/);
    expect(() => readWebexBotSettings({ ...storage, WEBEX_TOKEN: "t" })).toThrow(/WEBEX_WEBHOOK_SECRET/);
    expect(() =>
      readWebexBotSettings({ ...storage, WEBEX_TOKEN: "t", WEBEX_WEBHOOK_SECRET: "short" }),
    ).toThrow(/WEBEX_WEBHOOK_SECRET/);
  });
});
