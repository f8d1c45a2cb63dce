import { createHash, generateKeyPairSync } from "node:crypto";
import type { FakeSlack } from "@switchboard-testing/fake-slack";
import { startFakeSlack } from "@switchboard-testing/fake-slack";
import { freePort } from "@switchboard-testing/test-agents";
import { browse, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { SignJWT } from "jose";
import { type Db, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlackBot } from "../../../tools/slack-bot/src/app.js";
import {
  CANCEL_LINK,
  CONFIRM_LINK,
  confirmationFor,
  linkSlackUser,
  linkWhispered,
  type RelayFleet,
  slackBotEnv,
  startBot,
  startRelayFleet,
  until,
} from "../../../tools/slack-bot/test/relay-fleet.js";

/** Slack users: the attacker, the victim, and accounts whose emails are missing or odd. */
const MALLORY = "U0MALLORY";
const VERA = "U0VERA";
const NO_SLACK_EMAIL = "U0NOMAIL";
const NO_IDP_EMAIL = "U0NOIDPMAIL";
const UNVERIFIED = "U0UNVERIFIED";
const CHANNEL = "C0ATTACK";

/**
 * The forwarded Slack link, played with real processes: the fake Slack workspace, the relay with
 * the real Bolt client, the fleet (supervisor, Jira agent, web chat) and a real OpenID provider.
 * Mallory gets a link for her Slack account and has someone else sign in behind it; every way of
 * doing so must leave her Slack user acting as nobody but herself.
 */
describe("a forwarded Slack link hands over no identity", () => {
  const storage = testMongoEnv(uniqueDbName("adv-slack-link"));
  let idp: IdentityProvider;
  let slack: FakeSlack;
  let fleet: RelayFleet;
  let bot: SlackBot;
  let mongo: MongoClient;
  let db: Db;
  const mention = (text: string) => `<@${slack.workspace.botUserId}> ${text}`;
  const keyOf = (user: string) => `slack:${slack.workspace.teamId}:${user}`;
  const identityOf = (user: string) =>
    db.collection("identities_slack-bot").findOne({ _id: keyOf(user) as never });
  const mark = () => slack.workspace.ephemerals.length;

  beforeAll(async () => {
    const webPort = await freePort();
    const botPort = await freePort();
    idp = await startIdentityProvider({
      webOrigin: `http://localhost:${webPort}`,
      users: {
        mallory: { name: "Mallory", email: "mallory@example.com" },
        vera: { name: "Vera", email: "vera@example.com" },
        noemail: { name: "No Email" },
        unverified: { name: "Una", email: "una@example.com", emailVerified: false },
      },
    });
    slack = await startFakeSlack({
      users: [
        { id: MALLORY, name: "mallory", email: "mallory@example.com" },
        { id: VERA, name: "vera", email: "vera@example.com" },
        { id: NO_SLACK_EMAIL, name: "nomail" },
        { id: NO_IDP_EMAIL, name: "noidpmail", email: "noemail@example.com" },
        { id: UNVERIFIED, name: "una", email: "una@example.com" },
      ],
    });
    fleet = await startRelayFleet({ storage, idp, webPort, slackBotPort: botPort });
    bot = await startBot(
      slackBotEnv({
        slack,
        storage,
        idp,
        supervisorUrl: fleet.supervisorUrl,
        webUrl: fleet.webUrl,
        port: botPort,
      }),
    );
    await slack.waitForConnections(1);
    mongo = await MongoClient.connect(storage.MONGODB_URI ?? "");
    db = mongo.db(storage.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME);
  }, 240_000);
  afterAll(async () => {
    await bot?.stop();
    await fleet?.stop();
    await mongo?.close();
    await Promise.all([slack?.close(), idp?.close()]);
  });

  /** A user mentions the bot while unlinked: the link whispered to them. */
  const askForLink = async (user: string) => {
    const since = mark();
    const said = await slack.say(user, CHANNEL, mention("jira: open issues in PLAT"));
    return { link: await linkWhispered(slack, user, since), thread: said.ts };
  };
  /** Nothing acts as anyone: no model call, and `subject`'s web history holds nothing from Slack. */
  const nothingRanAs = async (subject: string, requestsBefore: number) => {
    expect(fleet.llm.requests.length).toBe(requestsBefore);
    const token = await signIn(idp, subject);
    const history = await fetch(`${fleet.webUrl}/api/conversations`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(JSON.stringify(await history.json())).not.toContain("open issues in PLAT");
  };

  it("the victim signs in behind Mallory's forwarded link: refused, Mallory's Slack user still acts as nobody", async () => {
    const requestsBefore = fleet.llm.requests.length;
    const { link } = await askForLink(MALLORY);
    const since = mark();
    const page = await browse(link, "vera");
    expect(page.status).toBe(400);
    expect(page.text).toContain("Nothing was linked");
    expect(page.text).toContain("If someone sent you this link, do not use it");
    // Nothing stored, nothing to confirm, and Mallory's next message gets a new link instead of a turn.
    expect(await identityOf(MALLORY)).toBeNull();
    expect(await db.collection("links_slack-bot").countDocuments({ subject: "vera" })).toBe(0);
    expect(slack.workspace.ephemerals.slice(since).some((e) => e.blocks)).toBe(false);
    await askForLink(MALLORY);
    await nothingRanAs("vera", requestsBefore);
  });

  it("Mallory opens her own link and forwards the provider's sign-in page: the victim's sign-in comes back to her state and is refused", async () => {
    const { link } = await askForLink(MALLORY);
    const opened = await fetch(link, { redirect: "manual" });
    expect(opened.status).toBe(302);
    const authorize = opened.headers.get("location") ?? "";
    expect(new URL(authorize).searchParams.get("scope")?.split(" ")).toEqual(
      expect.arrayContaining(["openid", "email"]),
    );
    // The state is fresh, not the link's code, and the link itself is used up by opening it once.
    expect(new URL(authorize).searchParams.get("state")).not.toBe(link.split("/").pop());
    expect((await browse(link, "mallory")).status).toBe(404);
    const page = await browse(authorize, "vera");
    expect(page.status).toBe(400);
    expect(page.text).toContain("another email");
    expect(await identityOf(MALLORY)).toBeNull();
  });

  it("refuses a sign-in without an email, with an unverified email, and a Slack account without an email", async () => {
    const cases = [
      { user: NO_IDP_EMAIL, subject: "noemail", says: "did not share an email" },
      { user: UNVERIFIED, subject: "unverified", says: "has not verified the email" },
      { user: NO_SLACK_EMAIL, subject: "vera", says: "users:read.email" },
    ];
    for (const { user, subject, says } of cases) {
      const { link } = await askForLink(user);
      const page = await browse(link, subject);
      expect(page.status, `${user} as ${subject}`).toBe(400);
      expect(page.text).toContain(says);
      expect(await identityOf(user)).toBeNull();
    }
  });

  it("reads the Slack email at callback time: an email changed after the link was handed out counts", async () => {
    // Mallory's Slack email is Vera's when she asks, and her own by the time the sign-in returns.
    slack.workspace.users.set(MALLORY, { id: MALLORY, name: "mallory", email: "vera@example.com" });
    const { link } = await askForLink(MALLORY);
    slack.workspace.users.set(MALLORY, { id: MALLORY, name: "mallory", email: "mallory@example.com" });
    const page = await browse(link, "vera");
    expect(page.status).toBe(400);
    expect(await identityOf(MALLORY)).toBeNull();
  });

  it("a link opens once: two browsers at once, a second open, and a replayed callback all lose", async () => {
    const { link } = await askForLink(VERA);
    const pages = await Promise.all([browse(link, "vera"), browse(link, "vera")]);
    expect(pages.map((p) => p.status).sort()).toEqual([200, 404]);
    expect((await browse(link, "vera")).status).toBe(404);
    // The winner's return (code and state) sent again: the state is used up.
    const winner = pages.find((p) => p.status === 200);
    const replayed = await fetch(winner?.url ?? "");
    expect(replayed.status).toBe(400);
    expect(await replayed.text()).toContain("expired or was already used");
    // Vera does not confirm: the pending sign-in is dropped with "No, this is not me".
    const question = await confirmationFor(slack, VERA);
    await slack.pressEphemeral(VERA, question, CANCEL_LINK);
    await until("the cancel notice", () =>
      slack.workspace.ephemerals.find((e) => e.user === VERA && e.text.includes("Nothing was linked")),
    );
    // Pressing Yes after No finds nothing.
    const since = mark();
    await slack.pressEphemeral(VERA, question, CONFIRM_LINK);
    await until("the refusal", () =>
      slack.workspace.ephemerals
        .slice(since)
        .find((e) => e.user === VERA && e.text.includes("nothing was linked")),
    );
    expect(await identityOf(VERA)).toBeNull();
  });

  it("an expired link and an expired confirmation link nobody", async () => {
    const links = db.collection("links_slack-bot");
    const past = new Date(Date.now() - 1_000);
    const { link } = await askForLink(VERA);
    const code = link.split("/").pop() ?? "";
    // Time moves on past the link's lifetime (10 minutes), before MongoDB's TTL monitor removes it.
    const hashed = createHash("sha256").update(code).digest("hex");
    expect(
      (await links.updateOne({ _id: hashed as never }, { $set: { expiresAt: past } })).modifiedCount,
    ).toBe(1);
    expect((await browse(link, "vera")).status).toBe(404);

    const fresh = await askForLink(VERA);
    const since = mark();
    expect((await browse(fresh.link, "vera")).status).toBe(200);
    const question = await confirmationFor(slack, VERA, since);
    await links.updateMany({ stage: "confirming", user: VERA }, { $set: { expiresAt: past } });
    await slack.pressEphemeral(VERA, question, CONFIRM_LINK);
    await until("the refusal", () =>
      slack.workspace.ephemerals
        .slice(since)
        .find((e) => e.user === VERA && e.text.includes("nothing was linked")),
    );
    expect(await identityOf(VERA)).toBeNull();
  });

  it("Mallory presses Vera's 'Yes, this is me': nothing happens; only Vera's own press links Vera", async () => {
    const requestsBefore = fleet.llm.requests.length;
    const { link } = await askForLink(VERA);
    const since = mark();
    expect((await browse(link, "vera")).status).toBe(200);
    const question = await confirmationFor(slack, VERA, since);
    expect(JSON.stringify(question.blocks)).toContain("Yes, this is me (vera@example.com)");
    await slack.pressEphemeral(MALLORY, question, CONFIRM_LINK);
    await until("Mallory's refusal", () =>
      slack.workspace.ephemerals
        .slice(since)
        .find((e) => e.user === MALLORY && e.text.includes("is not yours")),
    );
    // Her "No" does not cancel Vera's sign-in either.
    await slack.pressEphemeral(MALLORY, question, CANCEL_LINK);
    expect(await identityOf(MALLORY)).toBeNull();
    expect(await identityOf(VERA)).toBeNull();
    await nothingRanAs("vera", requestsBefore);

    await slack.pressEphemeral(VERA, question, CONFIRM_LINK);
    await until("Vera's linked notice", () =>
      slack.workspace.ephemerals
        .slice(since)
        .find((e) => e.user === VERA && e.text.includes("You are linked")),
    );
    expect(await identityOf(VERA)).toMatchObject({ subject: "vera" });
    expect(await identityOf(MALLORY)).toBeNull();
  });

  it("forget-me refuses a forged token, then unlinks Vera's Slack account: her next message asks her to link again", async () => {
    if (!(await identityOf(VERA))) {
      const since = mark();
      await slack.say(VERA, CHANNEL, mention("hello"));
      await linkSlackUser(slack, VERA, "vera", since);
    }
    // A token Mallory signed herself for Vera's subject, sent to the relay and through the web chat.
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const forged = await new SignJWT({ sub: "vera" })
      .setProtectedHeader({ alg: "RS256", kid: "test-key" })
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    const atRelay = await fetch(`${bot.url}/me`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(atRelay.status).toBe(401);
    expect((await fetch(`${bot.url}/me`, { method: "DELETE" })).status).toBe(401);
    const viaWeb = await fetch(`${fleet.webUrl}/api/me`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(viaWeb.status).toBe(401);
    expect(await identityOf(VERA)).toMatchObject({ subject: "vera" });

    // Vera's own forget-me, from the web chat, while the relay is down: refused whole, nothing erased.
    const token = await signIn(idp, "vera");
    const botEnv = slackBotEnv({
      slack,
      storage,
      idp,
      supervisorUrl: fleet.supervisorUrl,
      webUrl: fleet.webUrl,
      port: bot.port,
    });
    await bot.stop();
    const relayDown = await fetch(`${fleet.webUrl}/api/me`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(relayDown.status).toBe(502);
    expect(((await relayDown.json()) as { error: string }).error).toContain("SLACK_BOT_URL");
    bot = await startBot(botEnv);
    await slack.waitForConnections(1);
    expect(await identityOf(VERA)).toMatchObject({ subject: "vera" });

    // A second replica holds an access token for Vera from a turn it ran for her.
    const replica = await startBot({ ...botEnv, PORT: String(await freePort()) });
    try {
      await slack.waitForConnections(2);
      const before = await slack.say(VERA, CHANNEL, mention("jira: open issues in PLAT"), { connection: 1 });
      await until("Vera's answer from the replica", () =>
        slack.botReplies(CHANNEL, before.ts).find((m) => m.text.includes("PLAT-1")),
      );

      // Again, with the relay up.
      const forgotten = await fetch(`${fleet.webUrl}/api/me`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}` },
      });
      expect(forgotten.status).toBe(200);
      expect(await identityOf(VERA)).toBeNull();
      expect(await db.collection("links_slack-bot").countDocuments({ subject: "vera" })).toBe(0);

      // Neither the relay that forgot her nor the replica holding her token acts as her any more.
      const requestsBefore = fleet.llm.requests.length;
      for (const connection of [0, 1]) {
        const said = await slack.say(VERA, CHANNEL, mention("jira: open issues in PLAT"), { connection });
        await until(`the link notice from relay #${connection}`, () =>
          slack.botReplies(CHANNEL, said.ts).find((m) => m.text.includes("link your Slack account")),
        );
      }
      expect(fleet.llm.requests.length).toBe(requestsBefore);
    } finally {
      await replica.stop();
    }
  });

  it("a made-up state at the callback links nobody", async () => {
    const page = await fetch(`${fleet.webUrl}/slack/link/callback?code=made-up&state=${"A".repeat(32)}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("expired or was already used");
    expect(await identityOf(MALLORY)).toBeNull();
  });
});
