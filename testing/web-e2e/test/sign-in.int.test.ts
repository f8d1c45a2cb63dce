import type { FakeJira } from "@switchboard-testing/fake-jira";
import { freePort } from "@switchboard-testing/test-agents";
import { type IdentityProvider, startIdentityProvider } from "@switchboard-testing/test-idp";
import type { ScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatFleet, startChatFleet, startFakes } from "../src/chat-fleet.js";
import { launchBrowser } from "../src/chromium.js";
import { lastAgentItem, openPage, screenshot, sendMessage } from "../src/page.js";

describe("signing in to the web chat with OpenID Connect (AUTH_MODE=jwt)", () => {
  const dbName = uniqueDbName("web-oidc");
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let idp: IdentityProvider;
  let chat: ChatFleet;
  let browser: BrowserContext;

  beforeAll(async () => {
    ({ llm, jira } = await startFakes());
    const webPort = await freePort();
    idp = await startIdentityProvider({ webOrigin: `http://localhost:${webPort}` });
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
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await chat?.stop();
    await Promise.all([llm?.close(), jira?.close(), idp?.close()]);
  });

  it("signs in with code + PKCE, sends the access token, and keeps tokens out of persistent storage", async () => {
    // Without a token the supervisor's routes refuse the caller.
    expect((await fetch(`${chat.webUrl}/api/conversations`)).status).toBe(401);

    const page = await openPage(browser, `${chat.webUrl}/`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await screenshot(page, "sign-in");
    const authorizationRequest = page.waitForRequest((request) =>
      request.url().startsWith(`${idp.issuer}/auth?`),
    );
    await page.getByRole("button", { name: "Sign in" }).click();
    const authorize = new URL((await authorizationRequest).url());

    // The provider's own login and consent pages.
    await page.waitForURL((url) => url.origin === idp.issuer);
    await page.locator('input[name="login"]').fill("alice");
    await page.locator('input[name="password"]').fill("any password");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();

    await page.waitForURL((url) => url.origin === chat.webUrl && url.pathname === "/");
    await page.locator(".top .user", { hasText: "alice" }).waitFor();
    await sendMessage(page, "jira: open issues in PLAT");
    await lastAgentItem(page).locator(".answer", { hasText: "PLAT-1" }).waitFor();
    await page.locator(".conversations li", { hasText: "jira: open issues in PLAT" }).waitFor();
    await screenshot(page, "signed-in");

    const storage = await page.evaluate(() => ({
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
      cookies: document.cookie,
    }));
    expect(storage.local).not.toMatch(/access_token|id_token|refresh_token/);
    expect(storage.cookies).toBe("");
    expect(storage.session).toContain("access_token");
    // The authorization request used PKCE (S256), as a public client must.
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get("response_type")).toBe("code");
  });
});
