import { isRecord, JiraHttpError } from "../http.js";
import { renderStatus } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { findStatus, transitions } from "../workflow.js";
import { addComment } from "./comments.js";
import { requireIssue } from "./issues.js";

function listTransitions(ctx: RouteContext): RouteResult {
  const issue = requireIssue(ctx.state, ctx.params.issueIdOrKey ?? "");
  const available = transitions.filter((t) => t.to !== issue.status);
  return {
    status: 200,
    body: {
      expand: "transitions",
      transitions: available.map((t) => ({
        id: t.id,
        name: t.name,
        to: renderStatus(ctx.baseUrl, t.to),
        hasScreen: false,
        isGlobal: true,
        isInitial: false,
        isAvailable: true,
        isConditional: false,
        isLooped: false,
      })),
    },
  };
}

/** Moves the issue and records who did it; `update.comment[].add.body` adds a comment, as Jira allows. */
function doTransition(ctx: RouteContext): RouteResult {
  const issue = requireIssue(ctx.state, ctx.params.issueIdOrKey ?? "");
  const body = isRecord(ctx.body) ? ctx.body : {};
  const id = isRecord(body.transition) ? body.transition.id : undefined;
  if (typeof id !== "string" && typeof id !== "number") {
    throw JiraHttpError.messages(400, "Missing 'transition' identifier: send {transition: {id: '21'}}.");
  }
  const transition = transitions.find((t) => t.id === String(id) && t.to !== issue.status);
  if (!transition) throw JiraHttpError.messages(400, `Transition id '${id}' is not valid for this issue.`);
  const update = isRecord(body.update) && Array.isArray(body.update.comment) ? body.update.comment : [];
  for (const op of update) {
    if (isRecord(op) && isRecord(op.add)) addComment(ctx.state, issue, op.add.body);
  }
  const now = new Date();
  ctx.state.transitions.push({
    issueKey: issue.key,
    transitionId: transition.id,
    from: issue.status,
    to: transition.to,
    byAccountId: ctx.state.currentAccountId,
    at: now,
  });
  issue.status = transition.to;
  issue.updated = now;
  issue.resolutionDate = findStatus(transition.to)?.category === "done" ? now : null;
  return { status: 204 };
}

export function transitionRoutes(router: Router): void {
  router
    .on("GET", "/rest/api/3/issue/{issueIdOrKey}/transitions", listTransitions)
    .on("POST", "/rest/api/3/issue/{issueIdOrKey}/transitions", doTransition);
}
