import type { Logger } from "@switchboard/common";
import type { Express } from "express";
import { forward } from "./forward.js";

/** The Slack relay's account-link pages (tools/slack-bot), under this origin. */
const SLACK_LINK_PATH = "/slack/link";

/**
 * Offers the Slack relay's account link on the web chat's origin when SLACK_BOT_URL is set: a Slack
 * user's one-time link and the sign-in's return both land here (the address the identity provider
 * knows for the web chat) and go on to the relay, which does the linking.
 */
export function offerSlackLink(app: Express, slackBotUrl: URL | undefined, logger: Logger): void {
  if (!slackBotUrl) return;
  app.get(`${SLACK_LINK_PATH}/*rest`, (req, res) => forward(slackBotUrl, logger, req, res, req.originalUrl));
}
