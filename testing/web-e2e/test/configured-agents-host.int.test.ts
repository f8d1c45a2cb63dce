import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { AuthenticatedCaller, PolicyEngine, type Principal, parsePolicies } from "@switchboard/agent-runtime";
import { bearerGuard, callerOf, readAuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import { createLogger } from "@switchboard/common";
// The definitions' own entry (the package has no export map yet): the API the host mounts.
import {
  type DefinitionSource,
  definitionsApi,
  openDefinitions,
} from "@switchboard/dynamic-agents/definitions";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { type IdentityProvider, startIdentityProvider } from "@switchboard-testing/test-idp";
import express from "express";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../src/axe.js";
import { repoRoot } from "../src/chat-fleet.js";
import { launchBrowser } from "../src/chromium.js";
import { screenshot, signInAs } from "../src/page.js";

// CAIPE's roles as the host's policies have them: admins configure, everyone signed in reaches.
const POLICIES = `
@id("rbac-admin")
permit(principal in Switchboard::Group::"platform-admins", action, resource);
@id("signed-in-reach")
permit(principal, action == Switchboard::Action::"reach", resource) when { principal.authenticated };
`;

const APP_CONFIG = `
models:
  - { model_id: gpt-4o, name: GPT-4o, provider: openai, description: OpenAI's GPT-4o }
mcp_servers:
  - { id: github, name: GitHub, transport: http, endpoint: "http://127.0.0.1:9/mcp" }
agents:
  - id: incident-triage
    name: Incident triage
    description: Triage incidents
    system_prompt: You triage incidents.
    model_id: gpt-4o
    model_provider: openai
    allowed_tools: { github: true }
    visibility: global
`;

/**
 * The page against the definitions' real API (agents/dynamic-agents/src/definitions, CAIPE's
 * /api/v1/agents) behind the runtime's real bearer check and Cedar policies, mounted as the host
 * mounts it; its definitions kept in the definitions' in-memory store (no MongoDB: the page is
 * under test here, the store has tests of its own). The web server forwards to it as to the host.
 */
describe("the Configure agents page against the definitions API (CAIPE's /api/v1/agents)", () => {
  let idp: IdentityProvider;
  let source: DefinitionSource;
  let api: Server;
  let web: AgentProcess;
  let browser: BrowserContext;
  let webUrl: string;
  const served = (id: string) => source.current().agents.find((agent) => agent.id === id);

  beforeAll(async () => {
    const webPort = await freePort();
    webUrl = `http://localhost:${webPort}`;
    idp = await startIdentityProvider({
      webOrigin: webUrl,
      users: { alice: { groups: ["platform-admins"] }, bob: { groups: ["developers"] } },
    });
    const file = join(scratchDir("web-definitions-api"), "app-config.yaml");
    await writeFile(file, APP_CONFIG);
    const logger = createLogger({ level: "warn", base: { agent: "dynamic-agents" } });
    source = await openDefinitions({ env: { APP_CONFIG_FILE: file }, logger });
    const auth = readAuthSettings(
      { AUTH_MODE: "jwt", AUTH_JWKS_URL: idp.jwksUrl, AUTH_ISSUER: idp.issuer, AUTH_AUDIENCE: idp.audience },
      "dynamic-agents",
    );
    const engine = new PolicyEngine(parsePolicies(POLICIES, "test policies"));
    const anonymous: Principal = { subject: "local", groups: [], authenticated: false };
    const app = express();
    app.use(
      "/api/v1",
      bearerGuard(auth, "rest"),
      definitionsApi({
        source,
        logger,
        caller: async (req) => {
          const user = await callerOf(req);
          if (!(user instanceof AuthenticatedCaller)) return undefined;
          const groups = user.claims.groups;
          return {
            subject: user.subject,
            groups: Array.isArray(groups) ? groups.map(String) : [],
            authenticated: true,
          };
        },
        decide: async (principal, action, agent) =>
          engine.decide({ principal: principal ?? anonymous, action, agent }).allowed,
      }),
    );
    api = createServer(app);
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    web = await startAgentProcess(join(repoRoot, "tools", "web"), {
      env: {
        PORT: String(webPort),
        SWITCHBOARD_URL: `http://127.0.0.1:${await freePort()}`,
        DYNAMIC_AGENTS_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
        AUTH_MODE: "jwt",
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_SCOPE: idp.scope,
      },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await web?.kill("SIGTERM");
    api?.closeAllConnections();
    await new Promise((done) => api?.close(done));
    await source?.close();
    await idp?.close();
  });

  it("creates an agent the definitions serve at once (its 422 shown by field first), refuses a user the policy does not allow, and deletes it", async () => {
    const page = await signInAs(browser, webUrl, idp.issuer, "alice", "/configured-agents");
    const fileAgent = page.locator('li[data-agent-id="incident-triage"]');
    expect(await fileAgent.locator(".source").textContent()).toBe("from the configuration file");

    await page.getByRole("button", { name: "New agent" }).click();
    await page.locator("#agent-name").fill("Release helper");
    await page.locator("#agent-prompt").fill("You write release notes from merged pull requests.");
    await page.locator("#agent-model").selectOption({ label: "GPT-4o (openai)" });
    const github = page.locator('fieldset[data-server="github"]');
    // The API lists no tools for a server: the names are typed.
    await github.getByLabel("Only these tools").check();
    await github.getByLabel(/Tool names/).fill("search_code, get_pull_request");
    await github.getByLabel(/Ask the user first/).fill("get_pull_request");
    await page.getByRole("button", { name: "Add a subagent" }).click();
    await page.locator("#subagent-0-name").fill("triage");
    await page.locator("#subagent-0-description").fill("Incidents");
    await page.locator("#subagent-0-kind").selectOption({ label: "Another A2A agent, by URL" });
    await page.locator("#subagent-0-url").fill("file:///etc/passwd");
    await page.getByRole("button", { name: "Create agent" }).click();
    const urlError = page.locator("#subagent-0-url-error");
    await urlError.waitFor();
    expect(await urlError.textContent()).toMatch(/http/i);
    await screenshot(page, "configured-agent-host-422");
    expect(await page.locator("#subagent-0-url").getAttribute("aria-invalid")).toBe("true");
    expect(served("release-helper")).toBeUndefined();
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator("#agent-owner-team").fill("platform");
    // Delegate to the file's agent instead.
    await page.locator("#subagent-0-kind").selectOption({ label: "Incident triage (incident-triage)" });
    await page.getByRole("button", { name: "Create agent" }).click();
    await page.getByText("The agent Release helper is created.").waitFor();
    await page.locator('li[data-agent-id="release-helper"]').waitFor();
    expect(served("release-helper")).toEqual(
      expect.objectContaining({
        name: "Release helper",
        systemPrompt: "You write release notes from merged pull requests.",
        model: { id: "gpt-4o", provider: "openai" },
        allowedTools: { github: ["search_code", "get_pull_request"] },
        interruptOn: { github: { get_pull_request: true } },
        subagents: [expect.objectContaining({ name: "triage", agentId: "incident-triage" })],
        ownerTeam: "platform",
        sharedWithTeams: [],
        source: "api",
      }),
    );

    // Bob is signed in but no admin: the API's refusal is shown, and the agent stays as it was.
    await browser.clearCookies();
    const bob = await signInAs(browser, webUrl, idp.issuer, "bob", "/configured-agents");
    await bob.locator('li[data-agent-id="release-helper"]').waitFor();
    // Told before filling a form: the API lists tool servers only to those who may configure.
    await bob.getByRole("button", { name: "New agent" }).click();
    await bob
      .getByRole("alert")
      .filter({ hasText: /^You may not list MCP servers/ })
      .waitFor();
    expect(await bob.locator("#agent-name").count()).toBe(0);
    bob.once("dialog", (dialog) => void dialog.accept());
    await bob.getByRole("button", { name: "Delete Release helper" }).click();
    await bob
      .getByRole("alert")
      .filter({ hasText: /^You may not configure the agent "release-helper"/ })
      .waitFor();
    expect(served("release-helper")).toBeDefined();

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete Release helper" }).click();
    await page.getByText("The agent Release helper is deleted.").waitFor();
    expect(served("release-helper")).toBeUndefined();
    expect(served("incident-triage")).toBeDefined();
  });
});
