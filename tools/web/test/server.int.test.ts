import { join } from "node:path";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const packageDir = join(import.meta.dirname, "..");

describe("the web chat's server (dist/index.js)", () => {
  let web: AgentProcess;
  let supervisorPort: number;

  beforeAll(async () => {
    supervisorPort = await freePort(); // nothing listens there: the supervisor is down
    web = await startAgentProcess(packageDir, {
      env: { SWITCHBOARD_URL: `http://127.0.0.1:${supervisorPort}` },
    });
  });
  afterAll(async () => {
    await web?.kill("SIGTERM");
  });

  it("serves the page at every page address, under a policy that allows only its own scripts", async () => {
    for (const path of ["/", "/c/4f1c2a", "/auth/callback"]) {
      const page = await fetch(`${web.url}${path}`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(
        /<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/,
      );
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    }
    expect(await (await fetch(`${web.url}/config.json`)).json()).toEqual({ signIn: { mode: "none" } });
  });

  it("answers 404 at any other address: a page saying so to a browser, JSON to a program", async () => {
    for (const path of ["/settings", "/c/4f1c2a/extra", "/favicon.ico", "/assets-old/app.js"]) {
      const page = await fetch(`${web.url}${path}`, { headers: { accept: "text/html,*/*;q=0.8" } });
      expect(page.status).toBe(404);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await page.text()).toContain('There is no page at this address. <a href="/">Open the chat</a>.');
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    }
    const missing = await fetch(`${web.url}/settings`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "Not found: GET /settings." });
    const asset = await fetch(`${web.url}/assets/index-missing.js`);
    expect(asset.status).toBe(404);
  });

  it("says the supervisor is unreachable, where and what to set, when it is down", async () => {
    for (const path of ["/api/conversations", "/api/subagents", "/.well-known/agent-card.json"]) {
      const response = await fetch(`${web.url}${path}`);
      expect(response.status).toBe(502);
      expect(((await response.json()) as { error: string }).error).toMatch(
        new RegExp(
          `^Cannot reach the supervisor at http://127\\.0\\.0\\.1:${supervisorPort} \\(ECONNREFUSED\\)\\. Start the fleet \\(npm start\\) or set SWITCHBOARD_URL`,
        ),
      );
    }
  });

  it("forwards only the supervisor routes the page uses, and only reads and deletes", async () => {
    expect((await fetch(`${web.url}/api/conversations`, { method: "POST" })).status).toBe(405);
    const unknown = await fetch(`${web.url}/api/metrics`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Not found: GET /api/metrics." });
  });

  it("answers the agent API with 503 in CAIPE's envelope when DYNAMIC_AGENTS_URL is unset, saying how to turn it on", async () => {
    for (const [method, path] of [
      ["GET", "/api/v1/agents"],
      ["POST", "/api/v1/agents"],
      ["PATCH", "/api/v1/agents/platform-helper"],
      ["GET", "/api/v1/llm-models"],
    ]) {
      const response = await fetch(`${web.url}${path}`, { method });
      expect(response.status, path).toBe(503);
      expect(await response.json()).toEqual({
        success: false,
        code: "dynamic_agents_off",
        error: expect.stringMatching(
          /^Agents from configuration are off .* set DYNAMIC_AGENTS_URL on the web server/,
        ),
      });
    }
    const page = await fetch(`${web.url}/configured-agents`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
  });

  it("refuses to start with AUTH_MODE=jwt but no OpenID Connect settings, naming them", async () => {
    const started = startAgentProcess(packageDir, { env: { AUTH_MODE: "jwt" } });
    await expect(started).rejects.toThrow(/exited with code 1[\s\S]*set OIDC_ISSUER .* and OIDC_CLIENT_ID/);
  });
});
