import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import type { FakeJira } from "@switchboard-testing/fake-jira";
import { freePort } from "@switchboard-testing/test-agents";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import type { ScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatFleet, startChatFleet, startFakes } from "../src/chat-fleet.js";
import { launchBrowser } from "../src/chromium.js";
import { lastAgentItem, openPage, screenshot, sendMessage } from "../src/page.js";

// Everyone signed in works; only auditors read the audit trails.
const POLICY = `
@id("signed-in-work")
permit(principal, action in [Switchboard::Action::"reach", Switchboard::Action::"read", Switchboard::Action::"change"], resource)
when { principal.authenticated };

@id("auditors-audit")
permit(principal in Switchboard::Group::"auditors", action == Switchboard::Action::"audit", resource);
`;

describe("the web chat's Linked tokens, Audit and Memories pages (AUTH_MODE=jwt, policies)", () => {
  const dbName = uniqueDbName("web-account");
  const policyFile = join(scratchDir("web-account"), "policies.cedar");
  const linkedToken = `ghp_${randomBytes(18).toString("hex")}`;
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let idp: IdentityProvider;
  let chat: ChatFleet;
  let browser: BrowserContext;

  /** Signs `user` in through the provider's own pages, in a browser context of their own. */
  async function signedIn(user: string): Promise<Page> {
    const page = await openPage(browser, `${chat.webUrl}/`);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name="login"]').fill(user);
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.locator(".top .user", { hasText: user }).waitFor();
    return page;
  }

  beforeAll(async () => {
    writeFileSync(policyFile, POLICY);
    ({ llm, jira } = await startFakes());
    const webPort = await freePort();
    idp = await startIdentityProvider({
      webOrigin: `http://localhost:${webPort}`,
      users: { alice: { groups: ["auditors"] }, bob: { groups: [] } },
    });
    chat = await startChatFleet({
      storage: testMongoEnv(dbName),
      llm,
      jira,
      webPort,
      env: {
        AUTH_MODE: "jwt",
        AUTH_JWKS_URL: idp.jwksUrl,
        AUTH_ISSUER: idp.issuer,
        AUTH_AUDIENCE: idp.audience,
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_SCOPE: idp.scope,
        AUTHZ_POLICY_FILE: policyFile,
        CREDENTIALS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        // The GitHub agent takes users' tokens; linking makes no call to GitHub.
        ENABLE_GITHUB: "true",
        GITHUB_AGENT_PORT: String(await freePort()),
        GITHUB_API_URL: "http://127.0.0.1:9/api/v3",
        GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_service_token_not_used_here",
      },
    });
    // The GitHub agent, the supervisor and the web chat all started.
    expect(chat.fleet.failed).toEqual([]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await chat?.stop();
    await Promise.all([llm?.close(), jira?.close(), idp?.close()]);
  });

  it("links, lists and unlinks a token without ever showing it; the audit page shows it to an auditor and refuses others", async () => {
    const alice = await signedIn("alice");
    // The supervisor asks the agents it has joined: wait until GitHub has.
    await alice.locator('li[data-agent="github"][data-status="available"]').waitFor();
    // No knowledge base on this fleet (ENABLE_RAG unset): no Sources page offered.
    expect(await alice.getByRole("link", { name: "Sources" }).count()).toBe(0);
    await alice.getByRole("link", { name: "Linked tokens" }).click();
    await alice.waitForURL((url) => url.pathname === "/linked-tokens");
    const github = alice.locator('li[data-vendor="github"]');
    await github.locator(".status", { hasText: "not linked" }).waitFor();
    await github.getByLabel(/Your token/).fill(linkedToken);
    await github.getByRole("button", { name: "Link GitHub" }).click();
    await alice.getByText("Your GitHub token is linked.").waitFor();
    await github.locator(".status", { hasText: /^linked$/ }).waitFor();
    // The list says since when; the token is in no field, text or storage of the page.
    await github.locator("time").waitFor();
    expect(await github.getByLabel(/Replace with/).inputValue()).toBe("");
    const shown = await alice.evaluate(
      () => document.documentElement.outerHTML + JSON.stringify({ ...sessionStorage, ...localStorage }),
    );
    expect(shown).not.toContain(linkedToken);
    await screenshot(alice, "linked-tokens");
    // Agents that take no user's token say why.
    await alice.getByText("Agents that act with their own credentials only").click();
    await alice.getByText(/jira: The jira agent acts with its own credentials only/).waitFor();

    await github.getByRole("button", { name: "Unlink GitHub" }).click();
    await alice.getByText("Your GitHub token is unlinked.").waitFor();
    await github.locator(".status", { hasText: "not linked" }).waitFor();

    // An auditor reads who linked and unlinked, filtered by user and agent.
    await alice.getByRole("link", { name: "Audit" }).click();
    await alice.getByRole("textbox", { name: "User" }).fill("alice");
    await alice.getByRole("textbox", { name: "Agent" }).fill("github");
    await alice.getByRole("button", { name: "Show" }).click();
    const rows = alice.locator(".audit tbody tr");
    await rows.first().waitFor();
    expect(await rows.allInnerTexts()).toEqual([
      expect.stringMatching(/github\s+alice\s+unlink_token/),
      expect.stringMatching(/github\s+alice\s+link_token/),
    ]);
    await screenshot(alice, "audit");

    // Someone the policy does not let audit reads the refusal, and no line.
    await browser.clearCookies(); // alice's session at the identity provider
    const bob = await signedIn("bob");
    await bob.getByRole("link", { name: "Audit" }).click();
    await bob.getByRole("button", { name: "Show" }).click();
    await bob.locator(".audit .error", { hasText: 'Switchboard::Action::"audit"' }).waitFor();
    expect(await bob.locator(".audit tbody tr").count()).toBe(0);
  });

  it("shows a memory made in a turn on the Memories page; Forget and Forget all memories erase them, as GET /memories agrees", async () => {
    await browser.clearCookies();
    const bob = await signedIn("bob");
    for (const [fact, topic] of [
      ["my team's Jira project is PLAT", "jira project"],
      ["I work in us-west-2", "aws region"],
    ]) {
      await sendMessage(bob, `remember that ${fact} (topic: ${topic})`);
      await lastAgentItem(bob)
        .locator(".answer", { hasText: /I will remember that\.|Updated what I remember/ })
        .waitFor();
    }
    await bob.getByRole("link", { name: "Memories" }).click();
    await bob.waitForURL((url) => url.pathname === "/memories");
    const items = bob.locator(".memory-list li");
    const plat = items.filter({ hasText: "my team's Jira project is PLAT" });
    await plat.waitFor();
    await items.filter({ hasText: "I work in us-west-2" }).waitFor();
    await screenshot(bob, "memories");

    const token = await signIn(idp, "bob");
    const remembered = async () => {
      const answer = await fetch(`${chat.webUrl}/api/memories`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { memories: Array<{ text: string }> }).memories.map((m) => m.text);
    };
    await plat.getByRole("button", { name: "Forget" }).click();
    await bob.getByText("Forgotten.", { exact: true }).waitFor();
    await plat.waitFor({ state: "detached" });
    expect(await items.allInnerTexts()).toEqual([expect.stringContaining("I work in us-west-2")]);
    expect(await remembered()).toEqual(["I work in us-west-2"]);

    await bob.getByRole("button", { name: "Forget all memories" }).click();
    await bob.getByText("Every memory is forgotten.", { exact: true }).waitFor();
    await bob.getByText("Nothing is remembered about you.").waitFor();
    expect(await items.count()).toBe(0);
    expect(await remembered()).toEqual([]);
  });
});
