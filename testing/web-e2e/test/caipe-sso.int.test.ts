import { join } from "node:path";
import type { FakeJira } from "@switchboard-testing/fake-jira";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { type IdentityProvider, startIdentityProvider } from "@switchboard-testing/test-idp";
import type { ScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatFleet, repoRoot, startChatFleet, startFakes } from "../src/chat-fleet.js";
import { launchBrowser } from "../src/chromium.js";
import { lastAgentItem, openPage, sendMessage } from "../src/page.js";

// A CAIPE operator's sign-in settings for its UI (SSO_ENABLED, OIDC_ISSUER, OIDC_CLIENT_ID) and
// nothing of Switchboard's: the web chat runs on them alone, in front of a fleet whose agents check
// tokens (AUTH_MODE=jwt and its keys, which CAIPE's UI settings do not carry).

describe("the web chat on CAIPE's SSO_ENABLED=true, OIDC_ISSUER and OIDC_CLIENT_ID", () => {
  const dbName = uniqueDbName("web-caipe-sso");
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let idp: IdentityProvider;
  let chat: ChatFleet;
  let web: AgentProcess;
  let webUrl: string;
  let browser: BrowserContext;

  beforeAll(async () => {
    ({ llm, jira } = await startFakes());
    const webPort = await freePort();
    webUrl = `http://localhost:${webPort}`;
    idp = await startIdentityProvider({ webOrigin: webUrl });
    chat = await startChatFleet({
      storage: testMongoEnv(dbName),
      llm,
      jira,
      env: {
        AUTH_MODE: "jwt",
        AUTH_JWKS_URL: idp.jwksUrl,
        AUTH_ISSUER: idp.issuer,
        AUTH_AUDIENCE: idp.audience,
        // The fleet's own web chat (on another port) needs these under AUTH_MODE=jwt; this test uses its own.
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
      },
    });
    web = await startAgentProcess(join(repoRoot, "tools", "web"), {
      env: {
        PORT: String(webPort),
        SWITCHBOARD_URL: chat.fleet.supervisor.url,
        SSO_ENABLED: "true",
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await web?.kill("SIGTERM");
    await chat?.stop();
    await Promise.all([llm?.close(), jira?.close(), idp?.close()]);
  });

  it("sends a visitor to sign in at that provider, then chats as the signed-in user", async () => {
    expect(await (await fetch(`${webUrl}/config.json`)).json()).toEqual({
      signIn: { mode: "oidc", issuer: idp.issuer, clientId: idp.clientId, scope: "openid profile" },
    });
    const page = await openPage(browser, `${webUrl}/`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    expect(await page.locator(".composer").count()).toBe(0);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name="login"]').fill("alice");
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();

    await page.waitForURL((url) => url.origin === webUrl && url.pathname === "/");
    await page.locator(".top .user", { hasText: "alice" }).waitFor();
    await sendMessage(page, "jira: open issues in PLAT");
    await lastAgentItem(page).locator(".answer", { hasText: "PLAT-1" }).waitFor();
    await page.locator(".conversations li", { hasText: "jira: open issues in PLAT" }).waitFor();

    // The supervisor knows the conversation as Alice's: with her token it is listed, without one refused.
    const listed = await page.evaluate(async () => {
      const stored = Object.entries(sessionStorage).find(([key]) => key.startsWith("oidc.user:"));
      const token = (JSON.parse(stored?.[1] ?? "{}") as { access_token?: string }).access_token;
      const response = await fetch("/api/conversations", { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: await response.text() };
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toContain("jira: open issues in PLAT");
    expect((await fetch(`${webUrl}/api/conversations`)).status).toBe(401);
    // This supervisor asks for tokens: the web chat had nothing to warn about.
    expect(web.logs()).not.toContain("does not ask for their tokens");
  });
});
