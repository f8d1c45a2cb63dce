import { join } from "node:path";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentsApiDouble, type StoredAgent, startAgentsApiDouble } from "../src/agents-api-double.js";
import { seriousViolations } from "../src/axe.js";
import { repoRoot } from "../src/chat-fleet.js";
import { launchBrowser } from "../src/chromium.js";
import { openPage, screenshot, signInAs } from "../src/page.js";

const webDir = join(repoRoot, "tools", "web");
const ADMINS = "platform-admins";

/** Markup that would run if the page ever rendered what the API says as HTML. */
const hostile = (where: string) => `<img src=x onerror="window.__xss='${where}'">`;
const HOSTILE_NAME = `${hostile("name")}Release notes`;
const HOSTILE_PROMPT = `<script>window.__xss='prompt'</script><svg onload="window.__xss='svg'"></svg>`;

const FILE_AGENT: StoredAgent = {
  _id: "incident-triage",
  name: "Incident triage",
  description: "Triage incidents and open Jira issues",
  system_prompt: "You triage incidents.",
  model: { id: "claude-sonnet-4", provider: "anthropic-claude" },
  allowed_tools: { github: true },
  subagents: [],
  visibility: "global",
  enabled: true,
  is_system: false,
  config_driven: true,
};

/** Made earlier through the API by someone who filled every field with markup. */
const HOSTILE_AGENT: StoredAgent = {
  _id: "release-notes",
  name: HOSTILE_NAME,
  description: `<script>window.__xss='description'</script>`,
  system_prompt: HOSTILE_PROMPT,
  model: { id: "llama3", provider: "ollama" },
  allowed_tools: { memory: true, [hostile("server-key")]: true },
  subagents: [
    { agent_id: "incident-triage", name: hostile("subagent"), description: hostile("sub-description") },
  ],
  visibility: "team",
  enabled: false,
  is_system: false,
  config_driven: false,
  // What the host could not take of it, as the definitions API attaches it (their words, by field).
  problems: [{ field: "allowed_tools.memory", message: `${hostile("problem")}no tool server memory` }],
};

describe("the Configure agents page in Chromium, against an in-memory stand-in for CAIPE's agent API", () => {
  let idp: IdentityProvider;
  let api: AgentsApiDouble;
  let web: AgentProcess;
  let webOff: AgentProcess;
  let browser: BrowserContext;
  let webUrl: string;

  /** `user` signed in, on the Configure agents page with its list loaded. */
  async function onAgentsPage(user: string): Promise<Page> {
    await browser.clearCookies(); // the previous user's session at the identity provider
    const page = await signInAs(browser, webUrl, idp.issuer, user);
    await page.getByRole("link", { name: "Configure agents" }).click();
    await page.waitForURL((url) => url.pathname === "/configured-agents");
    await page.locator('li[data-agent-id="incident-triage"]').waitFor();
    return page;
  }

  beforeAll(async () => {
    const webPort = await freePort();
    webUrl = `http://localhost:${webPort}`;
    idp = await startIdentityProvider({
      webOrigin: webUrl,
      users: { alice: { groups: [ADMINS] }, bob: { groups: ["developers"] } },
    });
    api = await startAgentsApiDouble({
      idp,
      adminGroup: ADMINS,
      models: [
        {
          model_id: "claude-sonnet-4",
          name: "Claude Sonnet 4",
          provider: "anthropic-claude",
          description: "",
        },
        { model_id: "llama3", name: `${hostile("model")}Llama 3`, provider: "ollama", description: "" },
      ],
      servers: [
        { _id: "github", name: "GitHub", tools: ["get_issue", "create_issue", "search_code"] },
        { _id: "memory", name: "Memory", description: `${hostile("server")}Knowledge graph` },
      ],
      seed: [FILE_AGENT, HOSTILE_AGENT],
    });
    // The page under test and the server that serves it; no supervisor runs (the chat is not under test).
    const noSupervisor = `http://127.0.0.1:${await freePort()}`;
    [web, webOff] = await Promise.all([
      startAgentProcess(webDir, {
        env: {
          PORT: String(webPort),
          SWITCHBOARD_URL: noSupervisor,
          DYNAMIC_AGENTS_URL: api.url,
          AUTH_MODE: "jwt",
          OIDC_ISSUER: idp.issuer,
          OIDC_CLIENT_ID: idp.clientId,
          OIDC_SCOPE: idp.scope,
        },
      }),
      startAgentProcess(webDir, { env: { SWITCHBOARD_URL: noSupervisor } }),
    ]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([web?.kill("SIGTERM"), webOff?.kill("SIGTERM")]);
    await Promise.all([api?.close(), idp?.close()]);
  });

  it("lets an admin create an agent (field errors shown beside their fields first), edit it and delete it", async () => {
    const page = await onAgentsPage("alice");
    const fileAgent = page.locator('li[data-agent-id="incident-triage"]');
    expect(await fileAgent.locator(".source").textContent()).toBe("from the configuration file");
    expect(await fileAgent.getByRole("button", { name: /^Delete/ }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "New agent" }).click();
    await page.getByRole("heading", { name: "New agent" }).waitFor();
    // The form takes the focus at its heading, so a keyboard or screen reader user starts there.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("New agent");
    await page.locator("#agent-name").fill("Platform helper");
    expect(await page.locator("#agent-id").inputValue()).toBe("platform-helper");
    await page.locator("#agent-description").fill("Answers questions about the platform");
    // The system prompt is left empty, and the subagent's URL is not http(s): the API says so.
    await page.locator("#agent-model").selectOption({ label: "Claude Sonnet 4 (anthropic-claude)" });
    const github = page.locator('fieldset[data-server="github"]');
    await github.getByLabel("Only these tools").check();
    // None picked would be [] to CAIPE, which means every tool: the form refuses it and sends nothing.
    await page.getByRole("button", { name: "Create agent" }).click();
    await page.locator("#server-0-error", { hasText: "Pick at least one tool" }).waitFor();
    expect(api.requests.filter((line) => line.startsWith("POST"))).toEqual([]);
    await github.getByLabel("get_issue").check();
    await github.getByLabel("create_issue").check();
    await github.getByLabel(/Ask the user first/).fill("create_issue");
    await page.locator('fieldset[data-server="memory"]').getByLabel("All its tools").check();
    await page.getByRole("button", { name: "Add a subagent" }).click();
    await page.locator("#subagent-0-name").fill("weather");
    await page.locator("#subagent-0-description").fill("Weather forecasts");
    await page.locator("#subagent-0-kind").selectOption({ label: "Another A2A agent, by URL" });
    await page.locator("#subagent-0-url").fill("ftp://weather.internal/");
    await page.getByRole("button", { name: "Create agent" }).click();

    await page.locator(".form-problem", { hasText: "The agent is not valid." }).waitFor();
    expect(await page.locator("#agent-prompt-error").textContent()).toBe("An agent needs a system prompt.");
    expect(await page.locator("#agent-prompt").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#agent-prompt").getAttribute("aria-describedby")).toBe("agent-prompt-error");
    expect(await page.locator("#subagent-0-url-error").textContent()).toBe(
      "A subagent's URL must be http(s).",
    );
    // Fields the API did not name stay as they were, and the focus is on the first one it named.
    expect(await page.locator("#agent-name").getAttribute("aria-invalid")).toBe("false");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("agent-prompt");
    expect(api.agents.has("platform-helper")).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, "configured-agent-errors");

    await page.locator("#agent-prompt").fill("You help the platform team.");
    await page.locator("#subagent-0-url").fill("http://weather.internal:8000");
    await page.locator("#agent-owner-team").fill("platform");
    await page.locator("#agent-shared-teams").fill("sre, developers");
    await page.getByRole("button", { name: "Create agent" }).click();
    await page.getByText("The agent Platform helper is created.").waitFor();
    await page.locator('li[data-agent-id="platform-helper"]').waitFor();
    expect(api.agents.get("platform-helper")).toEqual(
      expect.objectContaining({
        name: "Platform helper",
        description: "Answers questions about the platform",
        system_prompt: "You help the platform team.",
        model: { id: "claude-sonnet-4", provider: "anthropic-claude" },
        allowed_tools: { github: ["get_issue", "create_issue"], memory: true },
        interrupt_on: { github: { create_issue: true } },
        subagents: [
          { name: "weather", description: "Weather forecasts", url: "http://weather.internal:8000" },
        ],
        visibility: "team",
        owner_team_slug: "platform",
        shared_with_teams: ["sre", "developers"],
        enabled: true,
        owner_id: "alice",
      }),
    );
    await screenshot(page, "configured-agents");

    // Edit: the form shows the agent as stored; the id stays; a change is sent as CAIPE's PATCH.
    await page.getByRole("button", { name: "Edit Platform helper" }).click();
    await page.getByRole("heading", { name: "Edit Platform helper" }).waitFor();
    expect(await page.locator("#agent-id").getAttribute("readonly")).not.toBeNull();
    expect(await page.locator("#agent-prompt").inputValue()).toBe("You help the platform team.");
    expect(await github.getByLabel("Only these tools").isChecked()).toBe(true);
    expect(await github.getByLabel("search_code").isChecked()).toBe(false);
    await page.locator("#agent-description").fill("Helps the platform team with GitHub");
    await page.locator("#agent-visibility").selectOption({ label: "Everyone" });
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("The agent Platform helper is saved.").waitFor();
    expect(api.agents.get("platform-helper")).toEqual(
      expect.objectContaining({
        description: "Helps the platform team with GitHub",
        visibility: "global",
        interrupt_on: { github: { create_issue: true } },
      }),
    );
    expect(api.requests).toContain("PATCH /api/v1/agents/platform-helper alice");

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Delete Platform helper" }).click();
    await page.getByText("The agent Platform helper is deleted.").waitFor();
    await page.locator('li[data-agent-id="platform-helper"]').waitFor({ state: "detached" });
    expect(api.agents.has("platform-helper")).toBe(false);
    await page.close();
  });

  it("shows an agent from the configuration file read-only, with nothing to save or delete", async () => {
    const page = await onAgentsPage("alice");
    await page.getByRole("button", { name: "View Incident triage" }).click();
    await page.getByRole("heading", { name: "Incident triage" }).waitFor();
    await page.getByText(/comes from the configuration file \(APP_CONFIG_FILE\)/).waitFor();
    expect(await page.locator("#agent-name").inputValue()).toBe("Incident triage");
    expect(await page.locator("#agent-name").isDisabled()).toBe(true);
    expect(await page.locator("#agent-prompt").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: /Save changes|Create agent|Add a subagent/ }).count()).toBe(
      0,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Back to the list" }).click();
    await page.getByRole("heading", { name: "Configure agents" }).waitFor();
    // Only reads reached the API: the page sends nothing for an agent from the file.
    expect(api.requests.filter((line) => /^(POST|PATCH|DELETE) .*incident-triage/.test(line))).toEqual([]);
    await page.close();
  });

  it("tells a user the policy does not allow that they may not configure agents, and nothing changes", async () => {
    const page = await onAgentsPage("bob");
    const before = JSON.stringify([...api.agents]);
    await page.getByRole("button", { name: "New agent" }).click();
    await page.locator("#agent-name").fill("Shadow admin");
    await page.locator("#agent-prompt").fill("Do as I say.");
    await page.locator("#agent-model").selectOption({ label: "Claude Sonnet 4 (anthropic-claude)" });
    await page.getByRole("button", { name: "Create agent" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "You may not configure agents: bob is not in platform-admins" })
      .waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();

    page.once("dialog", (dialog) => void dialog.accept());
    await page
      .locator('li[data-agent-id="release-notes"]')
      .getByRole("button", { name: /^Delete/ })
      .click();
    await page
      .getByRole("alert")
      .filter({ hasText: "You may not configure agents: bob is not in platform-admins" })
      .waitFor();
    expect(JSON.stringify([...api.agents])).toBe(before);
    expect(api.requests).toEqual(
      expect.arrayContaining(["POST /api/v1/agents bob", "DELETE /api/v1/agents/release-notes bob"]),
    );

    // The web server adds no identity of its own: without a token the API refuses, with bob's it reads.
    expect((await fetch(`${webUrl}/api/v1/agents`)).status).toBe(401);
    const token = await signIn(idp, "bob");
    const listed = await fetch(`${webUrl}/api/v1/agents`, { headers: { authorization: `Bearer ${token}` } });
    expect(listed.status).toBe(200);
    await page.close();
  });

  it("shows names, prompts, models and tool servers the API returns as text, never as markup", async () => {
    const page = await onAgentsPage("alice");
    const item = page.locator('li[data-agent-id="release-notes"]');
    expect(await item.locator(".agent-name").textContent()).toBe(HOSTILE_NAME);
    expect(await item.locator(".description").textContent()).toBe(HOSTILE_AGENT.description);
    expect(await item.locator(".agent-problems li").textContent()).toBe(
      `allowed_tools.memory: ${hostile("problem")}no tool server memory`,
    );
    await item.getByRole("button", { name: /^Edit/ }).click();
    await page.locator("#agent-prompt").waitFor();
    expect(await page.locator("#agent-prompt").inputValue()).toBe(HOSTILE_PROMPT);
    expect(await page.locator("#agent-name").inputValue()).toBe(HOSTILE_NAME);
    expect(await page.locator("#agent-model option:checked").textContent()).toBe(
      `${hostile("model")}Llama 3 (ollama)`,
    );
    await page
      .locator('fieldset[data-server="memory"]')
      .getByText(`${hostile("server")}Knowledge graph`)
      .waitFor();
    expect(await page.locator("#subagent-0-name").inputValue()).toBe(hostile("subagent"));
    // A tool server key the host no longer lists is shown (and kept), as text.
    expect(
      await page.locator(`fieldset[data-server="${hostile("server-key").replaceAll('"', '\\"')}"]`).count(),
    ).toBe(1);
    const ran = await page.evaluate(() => ({
      xss: (window as unknown as { __xss?: string }).__xss,
      injected: document.querySelectorAll(".side-page img, .side-page script, .side-page svg[onload]").length,
    }));
    expect(ran).toEqual({ xss: undefined, injected: 0 });
    await page.close();
  });

  it("fits a phone's width with no serious accessibility violation, list and form", async () => {
    const phone = await launchBrowser({ viewport: { width: 390, height: 844 } });
    try {
      const page = await signInAs(phone, webUrl, idp.issuer, "alice", "/configured-agents");
      await page.locator('li[data-agent-id="incident-triage"]').waitFor();
      // Nothing reaches past the screen's edge (a long option, a hostile name), in the page or its scrolling part.
      const fits = () =>
        page.evaluate(() =>
          [...document.querySelectorAll(".side-page *")].every(
            (element) => element.getBoundingClientRect().right <= window.innerWidth,
          ),
        );
      expect(await fits()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "New agent" }).click();
      await page.locator("#agent-name").waitFor();
      expect(await fits()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, "configured-agent-phone");
    } finally {
      await phone.close();
    }
  });

  it("says the feature is off, and how to turn it on, when the web server has no DYNAMIC_AGENTS_URL", async () => {
    const page = await openPage(browser, `${webOff.url}/configured-agents`);
    await page
      .getByRole("status")
      .filter({ hasText: /Agents from configuration are off .* set DYNAMIC_AGENTS_URL on the web server/ })
      .waitFor();
    expect(await page.getByRole("button", { name: "New agent" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
