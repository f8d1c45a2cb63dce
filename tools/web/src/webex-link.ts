import type { Logger } from "@switchboard/common";
import type { Express } from "express";
import { offerChatLink } from "./chat-link.js";

/** The Webex bot's account link (tools/webex-bot) on this origin, when WEBEX_BOT_URL is set. */
export function offerWebexLink(app: Express, webexBotUrl: URL | undefined, logger: Logger): void {
  if (!webexBotUrl) return;
  offerChatLink(
    app,
    { url: webexBotUrl, platform: "Webex", linkPath: "/webex/link", setting: "WEBEX_BOT_URL" },
    logger,
  );
}
