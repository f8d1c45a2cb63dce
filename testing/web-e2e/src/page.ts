import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";

/** Screenshots for people to look at (git-ignored). */
export const ARTIFACTS = join(import.meta.dirname, "..", "artifacts");

/** Opens the page; requests leaving the machine (the provider's web fonts) are refused, not attempted. */
export async function openPage(context: BrowserContext, url: string): Promise<Page> {
  await context.route(/^https?:\/\/(?!localhost[:/]|127\.0\.0\.1[:/])/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

/**
 * Types a message into the message box and sends it with Enter once the page takes one (its Send
 * button is live), as a person would: an answer shows a moment before its turn ends, and Enter
 * during a turn sends nothing.
 */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.locator("#message").fill(text);
  await page.locator(".composer button[type=submit]:enabled").waitFor();
  await page.locator("#message").press("Enter");
}

/** The newest stretch of the agent's work in the conversation. */
export function lastAgentItem(page: Page) {
  return page.locator(".messages li.agent").last();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/**
 * Signs `user` in through the test identity provider's own login and consent pages, from the web
 * chat at `webUrl`, and returns the page once it shows them signed in.
 */
export async function signInAs(
  context: BrowserContext,
  webUrl: string,
  issuer: string,
  user: string,
  path = "/",
): Promise<Page> {
  const page = await openPage(context, `${webUrl}${path}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.origin === issuer);
  await page.locator('input[name="login"]').fill(user);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.locator(".top .user", { hasText: user }).waitFor();
  return page;
}
