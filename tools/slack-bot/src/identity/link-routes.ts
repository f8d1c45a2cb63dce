import { isSwitchboardError, type Logger } from "@switchboard/common";
import { Router } from "express";
import {
  LINK_TTL_MS,
  type LinkedIdentities,
  type LinkingBot,
  type PendingLink,
} from "./linked-identities.js";

export interface LinkRoutesDeps {
  identities: LinkedIdentities;
  bot: LinkingBot;
  /**
   * Asks the chat user, in the thread where they asked and visible to them alone, to confirm that
   * the sign-in is theirs (a button that only they can press to effect).
   */
  askToConfirm: (pending: PendingLink) => Promise<void>;
  logger: Logger;
}

/**
 * The account link's two pages, under the web chat's origin (it forwards `bot.linkPath`, /slack/link
 * or /webex/link, to the bot):
 * the one-time link sends the browser to the identity provider's sign-in; the sign-in comes back to
 * /callback, which checks it and asks the chat user to confirm it in the chat. Nothing is linked on
 * these pages: only the chat user's own press in the chat links them.
 */
export function linkRoutes(deps: LinkRoutesDeps): Router {
  const router = Router();
  const { linkPath, platform, confirmWhere } = deps.bot;
  router.get(`${linkPath}/callback`, async (req, res) => {
    const { code, state, error } = req.query;
    if (typeof error === "string" || typeof code !== "string" || typeof state !== "string") {
      return page(
        res,
        400,
        "Sign-in did not finish",
        `Nothing was linked. Mention the bot in ${platform} again for a new link.`,
      );
    }
    try {
      const pending = await deps.identities.completeSignIn(state, code);
      await deps.askToConfirm(pending);
      return page(
        res,
        200,
        `Confirm in ${platform}`,
        `You signed in as ${pending.user.email}. Go back to ${platform} and press "Yes, this is me" ${confirmWhere}, within ${LINK_TTL_MS / 60_000} minutes: nothing acts as you until you do.`,
      );
    } catch (failure) {
      const known = isSwitchboardError(failure) && failure.category === "user";
      if (!known) deps.logger.error({ err: failure }, "completing an account link failed");
      return page(
        res,
        known ? 400 : 502,
        "Nothing was linked",
        known
          ? (failure as Error).message
          : `The identity provider or ${platform} did not answer. Mention the bot in ${platform} again for a new link in a minute.`,
      );
    }
  });
  router.get(`${linkPath}/:code`, async (req, res) => {
    const target = await deps.identities.startSignIn(req.params.code).catch((failure: unknown) => {
      deps.logger.error({ err: failure }, "starting an account link failed");
      return null;
    });
    if (target === null)
      return page(
        res,
        502,
        "Sign-in is unavailable",
        "The identity provider could not be reached. Try the link again in a minute.",
      );
    if (!target)
      return page(
        res,
        404,
        "This link has expired or was used",
        `A link opens once and only for a few minutes. Mention the bot in ${platform} again to get a new one.`,
      );
    res.set("cache-control", "no-store").redirect(302, target);
  });
  return router;
}

function page(res: import("express").Response, status: number, title: string, text: string): void {
  const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res
    .status(status)
    .set("cache-control", "no-store")
    .set("content-security-policy", "default-src 'none'")
    .type("html")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Switchboard</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
    );
}
