import type { WebexApi } from "./api.js";

/** The bot's webhooks, by name: what it replaces at each start. */
const HOOKS = [
  { name: "switchboard-webex-bot messages", resource: "messages" },
  { name: "switchboard-webex-bot attachmentActions", resource: "attachmentActions" },
] as const;

/**
 * Registers the bot's two webhooks (messages and attachment actions created) for `targetUrl`, signed
 * with `secret`. Its earlier ones (same name) are deleted first, so a new URL or secret takes over and
 * a restart leaves no duplicate; a second replica starting at once may leave two, whose deliveries
 * the relay's claims run once.
 */
export async function registerWebhooks(api: WebexApi, targetUrl: string, secret: string): Promise<void> {
  const existing = await api.webhooks();
  for (const hook of HOOKS) {
    for (const old of existing.filter((one) => one.name === hook.name)) await api.deleteWebhook(old.id);
    await api.createWebhook({ ...hook, targetUrl, event: "created", secret });
  }
}
