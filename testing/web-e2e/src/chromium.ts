import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium: Playwright's own browser downloads cannot be fetched on these machines. */
export const CHROMIUM = "/usr/bin/chromium";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Installs Debian's chromium package when it is missing (CI machines start without it). Needs root,
 * as CI runs; anyone else is told the command.
 */
export function ensureChromium(log: (line: string) => void = () => undefined): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM} is missing: install it with "sudo apt-get install -y chromium" (Debian).`);
  }
  log("Installing Debian's chromium package for the browser tests (once) ...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["update", "-qq"],
    ["install", "-y", "-qq", "--no-install-recommends", "chromium"],
  ]) {
    const result = spawnSync("apt-get", args, { env, stdio: ["ignore", "inherit", "inherit"] });
    if (result.status !== 0) {
      throw new Error(`apt-get ${args.join(" ")} failed (exit ${result.status ?? result.error?.message}).`);
    }
  }
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is still missing.`);
}

export interface BrowserOptions {
  /** CSS pixels; default a laptop screen. */
  viewport?: { width: number; height: number };
  /**
   * Ignore the page's Content-Security-Policy, so a test proves the sanitizer alone keeps answers
   * from running scripts (the policy is checked by a test of its own), and axe-core can be injected.
   */
  bypassCSP?: boolean;
}

/** Headless Chromium with a fresh profile, closed (profile and all) by the returned context's close(). */
export async function launchBrowser(options: BrowserOptions = {}): Promise<BrowserContext> {
  const profile = await mkdtemp(join(tmpdir(), "switchboard-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    bypassCSP: options.bypassCSP ?? true,
  });
  const close = context.close.bind(context);
  // Chromium may still be writing the profile as it exits: removal retries until it has.
  context.close = async (closeOptions) => {
    await close(closeOptions);
    await rm(profile, { recursive: true, force: true, maxRetries: 10 });
  };
  return context;
}
