import type { RequestHandler } from "express";
import { callerOf } from "../auth/bearer.js";
import type { Access } from "../authz/access.js";

/**
 * Every route a caller uses on an agent (conversations, audit, linked tokens, memories, forget me,
 * and the agent's own routes: the supervisor's /subagents and its fleet-wide ones) is decided by
 * the same `reach` action as a turn, after the bearer check: a caller the policy keeps from this
 * agent gets 403 with why, and a denial line, before the handler runs. Health, readiness, metrics
 * and the card stay open; an A2A turn is decided by the executor (Access.checkReach).
 */
export function reachGuard(access: Access): RequestHandler {
  if (!access.policies) return (_req, _res, next) => next();
  return async (req, res, next) => {
    const principal = access.principal(await callerOf(req));
    const route = `${req.method} ${typeof req.route?.path === "string" ? req.route.path : req.path}`;
    const refused = await access.reachRefusal(principal, { route });
    if (!refused) return next();
    res.status(403).json({ agent: access.agent, action: "reach", error: refused });
  };
}
