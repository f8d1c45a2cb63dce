import type { Logger } from "@switchboard/common";
import type { Express } from "express";
import { offerChatLink } from "./chat-link.js";

/** The Slack relay's account link (tools/slack-bot) on this origin, when SLACK_BOT_URL is set. */
export function offerSlackLink(app: Express, slackBotUrl: URL | undefined, logger: Logger): void {
  if (!slackBotUrl) return;
  offerChatLink(
    app,
    { url: slackBotUrl, platform: "Slack", linkPath: "/slack/link", setting: "SLACK_BOT_URL" },
    logger,
  );
}
