import { renderUser } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { findUser } from "../state.js";

function myself(ctx: RouteContext): RouteResult {
  const me = findUser(ctx.state, ctx.state.currentAccountId);
  return { status: 200, body: { ...renderUser(ctx.baseUrl, me), groups: { size: 1, items: [] } } };
}

export function myselfRoutes(router: Router): void {
  router.on("GET", "/rest/api/3/myself", myself);
}
