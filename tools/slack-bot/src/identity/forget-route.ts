import type { AuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import { bearerGuard, callerOf } from "@switchboard/agent-runtime/auth/bearer";
import { AuthenticatedCaller } from "@switchboard/agent-runtime/auth/caller";
import type { Logger } from "@switchboard/common";
import { Router } from "express";
import type { LinkedIdentities, LinkingBot } from "./linked-identities.js";

/**
 * "Forget me" for the relay (DELETE /me, the same answer shape as the agents'): every chat account
 * linked to the caller is unlinked and its sealed refresh token deleted. The caller is whoever the
 * bearer token names, verified as the agents verify it; the web chat's forget-me calls it beside
 * the supervisor's.
 */
export function forgetRoute(
  identities: LinkedIdentities,
  bot: LinkingBot,
  auth: AuthSettings,
  logger: Logger,
): Router {
  const router = Router();
  router.delete("/me", bearerGuard(auth, "rest"), async (req, res) => {
    const caller = await callerOf(req);
    if (!(caller instanceof AuthenticatedCaller)) {
      res
        .status(401)
        .json({ error: "Unauthorized: a bearer token is required (Authorization: Bearer <JWT>)." });
      return;
    }
    try {
      const unlinked = await identities.forget(caller.subject);
      res.json({ agent: bot.self, chatAccounts: unlinked });
    } catch (error) {
      logger.error({ err: error }, "forgetting a user's chat accounts failed");
      res.status(503).json({
        error: `The ${bot.platform} relay could not reach its database; nothing was forgotten. Try again.`,
      });
    }
  });
  return router;
}
