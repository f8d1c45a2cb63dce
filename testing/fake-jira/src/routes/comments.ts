import { isAdfDocument } from "../adf.js";
import { isRecord, JiraHttpError } from "../http.js";
import { renderComment } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import type { CommentRecord, FakeJiraState, IssueRecord } from "../state.js";
import { requireIssue } from "./issues.js";

export function addComment(state: FakeJiraState, issue: IssueRecord, body: unknown): CommentRecord {
  if (!isAdfDocument(body)) {
    throw JiraHttpError.fields(400, {
      comment:
        "Comment body must be an Atlassian Document in REST v3: {type: 'doc', version: 1, content: [...]}.",
    });
  }
  const now = new Date();
  const comment: CommentRecord = {
    id: String(state.nextCommentId++),
    issueKey: issue.key,
    authorId: state.currentAccountId,
    body,
    created: now,
    updated: now,
  };
  state.comments.push(comment);
  issue.updated = now;
  return comment;
}

function postComment(ctx: RouteContext): RouteResult {
  const issue = requireIssue(ctx.state, ctx.params.issueIdOrKey ?? "");
  const comment = addComment(ctx.state, issue, isRecord(ctx.body) ? ctx.body.body : undefined);
  return { status: 201, body: renderComment(ctx.baseUrl, ctx.state, comment) };
}

function listComments(ctx: RouteContext): RouteResult {
  const issue = requireIssue(ctx.state, ctx.params.issueIdOrKey ?? "");
  const startAt = Number(ctx.query.get("startAt") ?? 0);
  const maxResults = Number(ctx.query.get("maxResults") ?? 5000);
  const all = ctx.state.comments.filter((c) => c.issueKey === issue.key);
  if (ctx.query.get("orderBy") === "-created") all.reverse();
  return {
    status: 200,
    body: {
      startAt,
      maxResults,
      total: all.length,
      comments: all.slice(startAt, startAt + maxResults).map((c) => renderComment(ctx.baseUrl, ctx.state, c)),
    },
  };
}

export function commentRoutes(router: Router): void {
  router
    .on("GET", "/rest/api/3/issue/{issueIdOrKey}/comment", listComments)
    .on("POST", "/rest/api/3/issue/{issueIdOrKey}/comment", postComment);
}
