import type { FakeJira } from "@switchboard-testing/fake-jira";
import type { ScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../src/axe.js";
import { type ChatFleet, startChatFleet, startFakes, thinking } from "../src/chat-fleet.js";
import { launchBrowser } from "../src/chromium.js";
import { lastAgentItem, openPage, screenshot, sendMessage } from "../src/page.js";

const CONVERSATION_PATH = /\/c\/[0-9a-f-]{36}$/;

describe("the web chat in Chromium, against the local fleet", () => {
  const dbName = uniqueDbName("web");
  let llm: ScriptedLlm;
  let jira: FakeJira;
  let chat: ChatFleet;
  let browser: BrowserContext;
  let page: Page | undefined;

  const open = async (path = "/") => {
    page = await openPage(browser, `${chat.webUrl}${path}`);
    // The page renders after its script has read the server's settings: keys pressed before land nowhere.
    await page.locator("#message").waitFor();
    return page;
  };

  beforeAll(async () => {
    ({ llm, jira } = await startFakes());
    chat = await startChatFleet({ storage: testMongoEnv(dbName), llm, jira });
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await page?.close();
    page = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await chat?.stop();
    await Promise.all([llm?.close(), jira?.close()]);
  });

  it("answers a request routed to Jira, showing who works, then a short trail beside the answer", async () => {
    const page = await open();
    await sendMessage(page, "jira: open issues in PLAT");
    const item = lastAgentItem(page);
    await item.locator(".answer", { hasText: "PLAT-1" }).waitFor();
    expect(page.url()).toMatch(CONVERSATION_PATH);
    // The live activity became a collapsed trail naming the agent asked and the tool it ran.
    const trail = item.locator("details.trail-done");
    expect(await trail.locator("summary").textContent()).toMatch(/Asked jira · search_issues/);
    expect(await trail.getAttribute("open")).toBeNull();
    await trail.locator("summary").click();
    const steps = await trail.locator("li").allTextContents();
    expect(steps).toEqual(expect.arrayContaining(["Asking the jira agent", "jira: Calling search_issues"]));
    // The conversation is listed, titled by its first message.
    await page
      .locator(".conversations li", { hasText: "jira: open issues in PLAT" })
      .locator('a[aria-current="page"]')
      .waitFor();
    await screenshot(page, "chat-answer");
  });

  it("shows a subagent's confirmation as a card; Approve creates exactly one issue", async () => {
    const page = await open();
    const before = jira.issues.length;
    await sendMessage(page, "jira: create a bug in OPS: pager storm at night");
    const card = page.locator(".question.confirmation.open");
    await card.waitFor();
    expect(await card.locator("h3").textContent()).toBe("The jira agent asks to confirm a change");
    // The change, then every argument it will be sent with.
    expect(await card.locator(".change").textContent()).toBe(
      'Create a Jira Bug in OPS: "pager storm at night".\ncreate_issue will be sent exactly:\n' +
        "  project: OPS\n  summary: pager storm at night\n  issue_type: Bug",
    );
    // The question takes the focus, so keyboard and screen-reader users meet it at once.
    expect(await page.evaluate(() => document.activeElement?.classList.contains("question"))).toBe(true);
    expect(jira.issues).toHaveLength(before);
    await screenshot(page, "confirmation");

    await card.getByRole("button", { name: "Approve" }).click();
    await lastAgentItem(page)
      .locator(".answer", { hasText: /Created OPS-\d+/ })
      .waitFor();
    const created = jira.issues.filter((issue) => issue.summary === "pager storm at night");
    expect(created).toHaveLength(1);
    expect(await page.locator(".question .decision").textContent()).toBe("You approved this change.");
  });

  it("Decline creates nothing and says so", async () => {
    const page = await open();
    const before = jira.issues.length;
    await sendMessage(page, "jira: create a bug in OPS: rotate the staging certificates");
    const card = page.locator(".question.confirmation.open");
    await card.waitFor();
    await card.getByRole("button", { name: "Decline" }).click();
    await lastAgentItem(page)
      .locator(".answer", { hasText: /declined/ })
      .waitFor();
    expect(jira.issues).toHaveLength(before);
    expect(jira.issues.some((issue) => issue.summary === "rotate the staging certificates")).toBe(false);
    expect(await page.locator(".question .decision").textContent()).toBe("You declined this change.");
  });

  it("stops a turn with Stop: what was typed meanwhile stays, and the next message is answered at once", async () => {
    const page = await open();
    thinking.hold();
    const calls = thinking.calls;
    await sendMessage(page, "jira: take your time");
    await expect.poll(() => thinking.calls, { timeout: 20_000 }).toBe(calls + 1);
    // While the turn runs, Send waits and Stop ends it.
    await page.locator("#message").fill("jira: open issues in PLAT");
    expect(await page.locator(".composer button[type=submit]").isDisabled()).toBe(true);
    await page.locator(".composer").getByRole("button", { name: "Stop" }).click();
    await lastAgentItem(page).locator("p.muted", { hasText: "Stopped." }).waitFor();
    expect(await page.locator(".composer").getByRole("button", { name: "Stop" }).count()).toBe(0);
    expect(await page.locator("#message").inputValue()).toBe("jira: open issues in PLAT");
    // The Jira agent's turn was stopped too: its thread is free while its model call still hangs.
    await sendMessage(page, "jira: open issues in PLAT");
    await lastAgentItem(page).locator(".answer", { hasText: "PLAT-1" }).waitFor();
    await page.reload();
    await page.locator(".messages li.agent p.muted", { hasText: "Stopped." }).waitFor();
    await screenshot(page, "stopped");
    thinking.release();
  });

  it("renders tables and code, and nothing in an answer's HTML runs (scripts, handlers, javascript: links)", async () => {
    // The browser ignores the page's Content-Security-Policy here: the sanitizer alone must hold.
    const page = await open();
    await sendMessage(page, "show me the markup sample");
    const answer = lastAgentItem(page).locator(".answer");
    await answer.locator("table").waitFor();
    expect(await answer.locator("td").allTextContents()).toEqual(["PLAT-1", "Open"]);
    expect(await answer.locator("pre code").textContent()).toContain("kubectl get pods -n platform");
    // Give anything that could run a moment to do so, then look.
    await answer.locator("a", { hasText: "a link" }).click();
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
    expect(await answer.locator("script, button, [onerror], [onclick], [onbegin], svg").count()).toBe(0);
    expect(await answer.locator("a", { hasText: "a link" }).getAttribute("href")).toBeNull();
    await screenshot(page, "markdown-sanitized");
  });

  it("serves the page with a policy that allows no inline or foreign script", async () => {
    const response = await fetch(`${chat.webUrl}/`);
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("lists the subagents with their skills, and one that is down as down", async () => {
    const page = await open();
    const jiraEntry = page.locator('.agents li[data-agent="jira"]');
    await jiraEntry.locator(".status", { hasText: "connected" }).waitFor();
    await jiraEntry.locator("summary").click();
    expect(await jiraEntry.locator(".skills li").count()).toBeGreaterThan(0);
    const down = page.locator('.agents li[data-agent="status_page"]');
    await down.locator(".status", { hasText: "down" }).waitFor();
    expect(await down.locator(".reason").textContent()).not.toBe("");
    await screenshot(page, "agents");
  });

  it("works at phone width and by keyboard alone, confirmation included", async () => {
    const page = await open();
    await page.setViewportSize({ width: 390, height: 844 });
    // The sidebar folds behind the Menu button.
    expect(await page.locator(".sidebar").isVisible()).toBe(false);
    await page.keyboard.press("Tab"); // the skip link
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to the message box");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("message");
    await page.keyboard.type("jira: create a bug in PLAT: keyboard only");
    await page.keyboard.press("Enter");
    await page.locator(".question.confirmation.open").waitFor();
    await screenshot(page, "phone-confirmation");
    // Focus sits on the card; once its turn has ended, Tab reaches Approve and Enter presses it.
    await page.locator(".question.confirmation.open button:enabled", { hasText: "Approve" }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Approve");
    await page.keyboard.press("Enter");
    await lastAgentItem(page)
      .locator(".answer", { hasText: /Created PLAT-\d+/ })
      .waitFor();
    expect(jira.issues.filter((issue) => issue.summary === "keyboard only")).toHaveLength(1);

    const menu = page.getByRole("button", { name: "Menu" });
    await menu.focus();
    await page.keyboard.press("Enter");
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await page.locator(".sidebar").waitFor({ state: "visible" });
    await screenshot(page, "phone-menu");
  });

  it("has no serious or critical accessibility violation on its screens (axe-core)", async () => {
    const page = await open();
    await page.locator(".agents li").first().waitFor();
    const found: Record<string, unknown> = { empty: await seriousViolations(page) };
    await sendMessage(page, "jira: create a bug in OPS: axe check");
    await page.locator(".question.confirmation.open").waitFor();
    found.confirmation = await seriousViolations(page);
    await page.getByRole("button", { name: "Decline" }).click();
    await lastAgentItem(page).locator(".answer").waitFor();
    await lastAgentItem(page).locator("details.trail-done summary").click();
    found.answered = await seriousViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Menu" }).click();
    found.phoneMenu = await seriousViolations(page);
    expect(found).toEqual({ empty: [], confirmation: [], answered: [], phoneMenu: [] });
  });

  it("deletes a conversation from the list", async () => {
    const page = await open();
    await sendMessage(page, "jira: open issues in OPS");
    await lastAgentItem(page).locator(".answer", { hasText: "OPS-1" }).waitFor();
    const entry = page.locator(".conversations li", { hasText: "jira: open issues in OPS" });
    await entry.waitFor();
    page.once("dialog", (dialog) => void dialog.accept());
    await entry.getByRole("button", { name: /^Delete conversation/ }).click();
    await entry.waitFor({ state: "detached" });
    expect(new URL(page.url()).pathname).toBe("/");
  });

  // Last: it restarts the fleet.
  it("resumes a conversation on reload, from the URL, and after the whole fleet restarted (MongoDB)", async () => {
    const page = await open();
    await sendMessage(page, "jira: open issues in PLAT");
    await lastAgentItem(page).locator(".answer", { hasText: "PLAT-1" }).waitFor();
    await sendMessage(page, "jira: create a bug in PLAT: survives restarts");
    await page.locator(".question.confirmation.open").waitFor();
    const url = page.url();
    expect(url).toMatch(CONVERSATION_PATH);

    const expectResumed = async () => {
      await page.locator(".messages li.user", { hasText: "jira: open issues in PLAT" }).waitFor();
      await page.locator(".messages .answer", { hasText: "PLAT-1" }).waitFor();
      // The confirmation still waits, with its buttons, on the same task.
      await page.locator(".question.confirmation.open", { hasText: "survives restarts" }).waitFor();
    };
    await page.reload();
    await expectResumed();

    await chat.restart();
    await page.goto(url);
    await expectResumed();
    await screenshot(page, "resumed-after-restart");
    await page.getByRole("button", { name: "Approve" }).click();
    await lastAgentItem(page)
      .locator(".answer", { hasText: /Created PLAT-\d+/ })
      .waitFor();
    expect(jira.issues.filter((issue) => issue.summary === "survives restarts")).toHaveLength(1);
  });
});
