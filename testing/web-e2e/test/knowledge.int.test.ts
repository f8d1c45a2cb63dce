import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openConfiguredKnowledgeStore, readKnowledgeSettings } from "@switchboard/knowledge";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type FakeJira, startFakeJira } from "@switchboard-testing/fake-jira";
import { freePort } from "@switchboard-testing/test-agents";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { callTool, rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { generateKeyPair, SignJWT } from "jose";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatFleet, startChatFleet } from "../src/chat-fleet.js";
import { launchBrowser } from "../src/chromium.js";
import { lastAgentItem, screenshot, sendMessage, signInAs } from "../src/page.js";

// The knowledge base in the web chat, as npm start runs it: the fleet starts the RAG server
// (tools/rag-server, embedded PGlite, the test LLM's embeddings) and wires the supervisor and the web
// chat to it. alice (sre) may read the security runbooks and administers every source; bob may read
// the handbook only. The page shows an answer's sources under it and a Sources page, each from what
// the supervisor and the RAG server give that user.

/** A handbook page whose title a hostile author wrote: it must show as text, never run. */
const HOSTILE_TITLE = `Restart payments <img src=x onerror="window.__xss='title'">`;
const RESTART = {
  id: "restart-payments",
  uri: "https://docs.example.com/handbook/restart-payments",
  title: HOSTILE_TITLE,
  text: "# Restart payments\n\nScale the payments deployment to zero, wait for the pgbouncer pool to drain, then scale back to three replicas.",
  readers: "everyone" as const,
};
/** Only the sre group may read it; its words are found nowhere else. */
const BREAK_GLASS = {
  id: "break-glass",
  uri: "https://docs.example.com/security/break-glass",
  title: "Break-glass access to production",
  text: "# Break-glass access to production\n\nThe break-glass passphrase sits in the vault under secret/breakglass/zephyr-quokka-71; opening it pages security.",
  readers: { groups: ["sre"] },
};
const SECRET_WORDS = ["zephyr-quokka-71", "Break-glass access", "security/break-glass", "Security runbooks"];

/**
 * The model: "kb: <question>" searches the knowledge base; after the search it answers from the
 * first hit, linking it as the supervisor's prompt asks ([title](source_url)).
 */
const script = rules(
  [
    {
      toolOffered: "search",
      lastUser: /^kb: (.+)$/,
      reply: (_r, { match }) => callTool("search", { query: match?.[1], thought: "the user asks how" }),
    },
    {
      afterTool: "search",
      reply: (request) => {
        const result = request.messages.findLast((message) => message.role === "tool");
        const content =
          typeof result?.content === "string" ? result.content : JSON.stringify(result?.content);
        const [top] = (
          JSON.parse(content) as { semantic_results: Array<{ metadata: Record<string, string> }> }
        ).semantic_results;
        return say(top ? `See [the runbook](${top.metadata.source_url}).` : "Nothing found.");
      },
    },
  ],
  say("Ask with kb: to search the knowledge base."),
);

describe("the web chat's sources under an answer and its Sources page (ENABLE_RAG, AUTH_MODE=jwt)", () => {
  const dir = scratchDir("web-knowledge");
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let idp: IdentityProvider;
  let chat: ChatFleet;
  let browser: BrowserContext;

  const signedIn = async (user: string, path = "/"): Promise<Page> => {
    await browser.clearCookies(); // the last user's session at the identity provider
    return signInAs(browser, chat.webUrl, idp.issuer, user, path);
  };

  beforeAll(async () => {
    const webPort = await freePort();
    [llm, jira, idp] = await Promise.all([
      startScriptedLlm({ script }),
      startFakeJira(),
      startIdentityProvider({
        webOrigin: `http://localhost:${webPort}`,
        users: { alice: { groups: ["platform", "sre"] }, bob: { groups: ["platform"] } },
      }),
    ]);
    const sourcesFile = join(dir, "sources.yaml");
    writeFileSync(
      sourcesFile,
      `sources:
  - id: handbook
    type: upload
    name: Platform handbook
    readers: everyone
    admins: [sre]
  - id: security
    type: upload
    name: Security runbooks
    readers: { groups: [sre] }
    admins: [sre]
  # Nothing answers there: its sync fails, and the page says so.
  - id: wiki
    type: confluence
    url: http://127.0.0.1:${await freePort()}/wiki
    spaces: [OPS]
    admins: [sre]
`,
    );
    const knowledge = {
      EMBEDDINGS_PROVIDER: "openai",
      EMBEDDINGS_MODEL: "text-embedding-3-small",
      KNOWLEDGE_PGLITE_DIR: join(dir, "knowledge"),
    };
    // As the sources' connectors hand documents over (uploads are ingest's): into the store the
    // fleet's RAG server opens next, each with the readers its source gave it.
    const seedEnv = { ...llm.env, ...knowledge };
    const store = await openConfiguredKnowledgeStore(readKnowledgeSettings(seedEnv), seedEnv);
    await store.upsertDocuments("handbook", [RESTART]);
    await store.upsertDocuments("security", [BREAK_GLASS]);
    await store.close();

    chat = await startChatFleet({
      storage: testMongoEnv(uniqueDbName("web-knowledge")),
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
        ...knowledge,
        KNOWLEDGE_SOURCES_FILE: sourcesFile,
        RAG_SERVER_URL: `http://127.0.0.1:${await freePort()}`,
        CONFLUENCE_USERNAME: "ingest@example.com",
        CONFLUENCE_API_TOKEN: "not-a-real-token",
        // The supervisor says at info when it has taken the knowledge base's tools.
        LOG_LEVEL: "info",
      },
    });
    expect(chat.fleet.failed).toEqual([]);
    expect(chat.fleet.ragServer).toBeDefined();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await chat?.stop();
    await Promise.all([llm?.close(), jira?.close(), idp?.close()]);
  });

  it("shows alice the sources under her answer, as links that open apart, with a hostile title as text; a reload keeps them", async () => {
    await expect
      .poll(() => chat.fleet.supervisor.process.logs(), { timeout: 30_000 })
      .toContain("Knowledge base connected");
    const alice = await signedIn("alice");
    await sendMessage(alice, "kb: where is the break-glass passphrase kept?");
    const sources = lastAgentItem(alice).getByRole("region", { name: "Sources" });
    const link = sources.getByRole("link", { name: "Break-glass access to production" });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(BREAK_GLASS.uri);
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    // The list is the page's own: not the part's JSON in the answer's text.
    expect(await lastAgentItem(alice).locator(".answer").textContent()).not.toContain("datasource_id");
    await screenshot(alice, "answer-sources");

    await sendMessage(alice, "kb: how do I restart payments?");
    const restart = lastAgentItem(alice).getByRole("region", { name: "Sources" });
    await restart.getByRole("link", { name: HOSTILE_TITLE }).waitFor();
    expect(await restart.locator("img").count()).toBe(0);
    expect(await alice.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();

    // The conversation read back from the supervisor's task store shows the same sources.
    await alice.reload();
    await alice
      .locator(".messages li.agent")
      .first()
      .getByRole("link", { name: "Break-glass access to production" })
      .waitFor();
    expect(await alice.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
  });

  it("lists alice's sources with their sync state; Sync now on a broken source shows its error; a file she adds is counted", async () => {
    const alice = await signedIn("alice");
    await alice.getByRole("link", { name: "Sources" }).click();
    await alice.waitForURL((url) => url.pathname === "/sources");
    const rows = alice.locator(".knowledge-sources tbody tr");
    await rows.first().waitFor();
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-source")))).toEqual([
      "handbook",
      "security",
      "wiki",
    ]);
    const security = alice.locator('tr[data-source="security"]');
    expect(await security.locator("th").textContent()).toContain("Security runbooks");
    expect(await security.locator("td").nth(0).textContent()).toBe("upload");
    expect(await security.locator("td").nth(4).textContent()).toMatch(/^1 \(1 chunks?\)$/);

    const wiki = alice.locator('tr[data-source="wiki"]');
    expect(await wiki.locator("td").nth(1).textContent()).toBe("never");
    await wiki.getByRole("button", { name: "Sync wiki now" }).click();
    await alice.getByText("wiki: sync started.").waitFor();
    // The page follows the running sync until it ends: failed, with why, and no success.
    await wiki.locator("td.error", { hasText: /\S/ }).waitFor({ timeout: 30_000 });
    expect(await wiki.locator("td").nth(1).textContent()).not.toBe("never");
    expect(await wiki.locator("td").nth(2).textContent()).toBe("never");

    // She adds a file to the handbook from the page; a hostile file name is shown as text.
    const fileName = `rotate-certs <img src=x onerror="window.__xss='file'">.md`;
    const handbook = alice.locator('tr[data-source="handbook"]');
    await handbook.locator('input[type="file"]').setInputFiles({
      name: fileName,
      mimeType: "text/markdown",
      buffer: Buffer.from("# Rotate certificates\n\ncert-manager renews them; force one with cmctl renew."),
    });
    await alice.getByText(`${fileName} was added to Platform handbook.`).waitFor();
    await handbook.locator("td", { hasText: /^2 \(2 chunks\)$/ }).waitFor();
    expect(await alice.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
    await screenshot(alice, "sources-page");
  });

  it("gives bob neither a word of what he may not read nor a button he may not press, even with a token he forged", async () => {
    const bob = await signedIn("bob", "/sources");
    const rows = bob.locator(".knowledge-sources tbody tr");
    await rows.first().waitFor();
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-source")))).toEqual([
      "handbook",
    ]);
    expect(await bob.locator(".knowledge-sources button, .knowledge-sources input").count()).toBe(0);

    // Straight at the API with his own token: a sync of a source he may not list is refused unsent.
    const token = await signIn(idp, "bob");
    const sync = await fetch(`${chat.webUrl}/api/rag/v1/datasources/wiki/sync`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(sync.status).toBe(404);
    // A token bob made himself, naming alice and the sre group, is refused: the list stays shut.
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({ groups: ["sre"] })
      .setProtectedHeader({ alg: "RS256", kid: "forged" })
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setSubject("alice")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    const refused = await fetch(`${chat.webUrl}/api/rag/v1/datasources`, {
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(refused.status).toBe(401);
    expect(await refused.text()).not.toMatch(/security|wiki|handbook/);
    // No token at all reads only what everyone may.
    const anonymous = await fetch(`${chat.webUrl}/api/rag/v1/datasources`);
    expect(await anonymous.text()).not.toContain("security");

    await bob.goto(`${chat.webUrl}/`);
    await bob.locator(".top .user", { hasText: "bob" }).waitFor();
    await sendMessage(bob, "kb: where is the break-glass passphrase kept?");
    await lastAgentItem(bob).locator(".answer").waitFor();
    await lastAgentItem(bob).getByRole("region", { name: "Sources" }).waitFor();
    const page = await bob.evaluate(() => document.documentElement.outerHTML);
    for (const word of SECRET_WORDS) expect(page).not.toContain(word);
  });
});
