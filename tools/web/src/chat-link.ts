import type { Logger } from "@switchboard/common";
import type { Express } from "express";
import { forward, type Upstream } from "./forward.js";

/** A chat relay whose account link this server offers: tools/slack-bot, tools/webex-bot. */
export interface ChatRelay {
  url: URL;
  /** Its platform as users read it: Slack, Webex. */
  platform: string;
  /** Where its link pages are, under this origin: /slack/link, /webex/link. */
  linkPath: string;
  /** The web server's setting that points at it: SLACK_BOT_URL, WEBEX_BOT_URL. */
  setting: string;
}

const FORGET_TIMEOUT_MS = 10_000;

/**
 * Offers a chat relay's account link on the web chat's origin: a chat user's one-time link and the
 * sign-in's return both land here (the address the identity provider knows for the web chat) and go
 * on to the relay, which does the linking. "Forget me" (DELETE /api/me) goes to the relay first, with
 * the caller's own token, so their chat accounts are unlinked before the supervisor erases the rest:
 * a relay that cannot forget them stops the request with nothing erased, and asking again finishes
 * it. Each relay offered adds its step, in turn, before the supervisor's.
 */
export function offerChatLink(app: Express, relay: ChatRelay, logger: Logger): void {
  const name = `the ${relay.platform} relay`;
  const upstream: Upstream = {
    url: relay.url,
    name,
    fix: `Start it (npm start runs it when ${relay.platform} is set up) or set ${relay.setting} on the web server.`,
  };
  app.get(`${relay.linkPath}/*rest`, (req, res) => forward(upstream, logger, req, res, req.originalUrl));
  app.delete("/api/me", async (req, res, next) => {
    const authorization = req.header("authorization");
    const url = new URL(`${relay.url.pathname.replace(/\/+$/, "")}/me`, relay.url);
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
        { relay: relay.url.origin, reason: (error as Error).message },
        `${name} did not forget a user`,
      );
      return res.status(502).json({
        error: `The ${relay.platform} relay at ${relay.url.origin} could not forget your ${relay.platform} account, so nothing was erased. Try again in a minute; if it keeps failing, check the relay (${relay.setting}).`,
      });
    }
    next();
  });
}
