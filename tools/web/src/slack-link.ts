import type { Logger } from "@switchboard/common";
import type { Express } from "express";
import { forward, type Upstream } from "./forward.js";

/** The Slack relay's account-link pages (tools/slack-bot), under this origin. */
const SLACK_LINK_PATH = "/slack/link";
const FORGET_TIMEOUT_MS = 10_000;

/**
 * Offers the Slack relay's account link on the web chat's origin when SLACK_BOT_URL is set: a Slack
 * user's one-time link and the sign-in's return both land here (the address the identity provider
 * knows for the web chat) and go on to the relay, which does the linking. "Forget me" (DELETE
 * /api/me) goes to the relay first, with the caller's own token, so their Slack accounts are
 * unlinked before the supervisor erases the rest: a relay that cannot forget them stops the request
 * with nothing erased, and asking again finishes it.
 */
export function offerSlackLink(app: Express, slackBotUrl: URL | undefined, logger: Logger): void {
  if (!slackBotUrl) return;
  const relay: Upstream = {
    url: slackBotUrl,
    name: "the Slack relay",
    fix: "Start it (npm start runs it when Slack is set up) or set SLACK_BOT_URL on the web server.",
  };
  app.get(`${SLACK_LINK_PATH}/*rest`, (req, res) => forward(relay, logger, req, res, req.originalUrl));
  app.delete("/api/me", async (req, res, next) => {
    const authorization = req.header("authorization");
    const url = new URL(`${slackBotUrl.pathname.replace(/\/+$/, "")}/me`, slackBotUrl);
    try {
      const answer = await fetch(url, {
        method: "DELETE",
        headers: authorization ? { authorization } : {},
        signal: AbortSignal.timeout(FORGET_TIMEOUT_MS),
      });
      // The relay checks the token as the supervisor does: its refusal is the caller's answer.
      if (answer.status === 401) return res.status(401).json(await answer.json().catch(() => ({})));
      // 404: the relay links nobody (its AUTH_MODE=none), so it has nothing of theirs to forget.
      if (!answer.ok && answer.status !== 404) throw new Error(`HTTP ${answer.status}`);
    } catch (error) {
      logger.warn(
        { relay: slackBotUrl.origin, reason: (error as Error).message },
        "the Slack relay did not forget a user",
      );
      return res.status(502).json({
        error: `The Slack relay at ${slackBotUrl.origin} could not forget your Slack account, so nothing was erased. Try again in a minute; if it keeps failing, check the relay (SLACK_BOT_URL).`,
      });
    }
    next();
  });
}
