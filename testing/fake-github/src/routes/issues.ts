import { GithubHttpError, isRecord } from "../http.js";
import { paginate, sortBy } from "../paginate.js";
import { renderIssue } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { nextNumber } from "../seed.js";
import { collaborators, fullName, type IssueRecord } from "../state.js";
import { requireRepo, urls } from "./lookup.js";

function listIssues(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const q = ctx.query;
  const state = q.get("state") ?? "open";
  const labels =
    q
      .get("labels")
      ?.split(",")
      .map((l) => l.trim().toLowerCase())
      .filter(Boolean) ?? [];
  const assignee = q.get("assignee");
  const creator = q.get("creator")?.toLowerCase();
  const since = q.get("since") ? Date.parse(q.get("since") ?? "") : undefined;
  const found = ctx.state.issues.filter(
    (i) =>
      i.repo === fullName(repo) &&
      (state === "all" || i.state === state) &&
      labels.every((l) => i.labels.some((x) => x.toLowerCase() === l)) &&
      (assignee === null ||
        (assignee === "none"
          ? i.assignees.length === 0
          : assignee === "*"
            ? i.assignees.length > 0
            : i.assignees.includes(assignee))) &&
      (!creator || i.user.toLowerCase() === creator) &&
      (since === undefined || i.updatedAt.getTime() >= since),
  );
  const sort = q.get("sort") ?? "created";
  const key = (i: IssueRecord) =>
    (sort === "comments" ? i.comments : sort === "updated" ? i.updatedAt : i.createdAt).valueOf();
  const { page, headers } = paginate(ctx, sortBy(found, key, q.get("direction"), "desc"));
  return { status: 200, body: page.map((i) => renderIssue(urls(ctx), ctx.state, i)), headers };
}

function getIssue(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const issue = ctx.state.issues.find(
    (i) => i.repo === fullName(repo) && i.number === Number(ctx.params.number),
  );
  if (!issue) throw GithubHttpError.notFound();
  return { status: 200, body: renderIssue(urls(ctx), ctx.state, issue) };
}

/** Checks `assignees` against who may be assigned in the repository, and returns them. */
export function validAssignees(ctx: RouteContext, body: Record<string, unknown>, resource: string): string[] {
  const repo = requireRepo(ctx);
  const raw = [
    ...(Array.isArray(body.assignees) ? body.assignees : []),
    ...(typeof body.assignee === "string" ? [body.assignee] : []),
  ];
  const allowed = collaborators(ctx.state, repo);
  const bad = raw.filter((a) => typeof a !== "string" || !allowed.includes(a));
  if (bad.length > 0) {
    throw GithubHttpError.validation(
      ...bad.map((value) => ({ value, resource, field: "assignees", code: "invalid" as const })),
    );
  }
  return raw as string[];
}

function createIssue(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const body = isRecord(ctx.body) ? ctx.body : {};
  if (body.title === undefined || body.title === null)
    throw GithubHttpError.invalidRequest('"title" wasn\'t supplied.');
  if (typeof body.title !== "string" && typeof body.title !== "number") {
    throw GithubHttpError.invalidRequest(
      `For 'properties/title', ${JSON.stringify(body.title)} is not a string or integer.`,
    );
  }
  const title = String(body.title).trim();
  if (title === "")
    throw GithubHttpError.validation({ resource: "Issue", code: "missing_field", field: "title" });
  const assignees = validAssignees(ctx, body, "Issue");
  const labels = (Array.isArray(body.labels) ? body.labels : []).map((l) =>
    isRecord(l) ? String(l.name) : String(l),
  );
  const now = new Date();
  const issue: IssueRecord = {
    id: ctx.state.nextId++,
    repo: fullName(repo),
    number: nextNumber(ctx.state, fullName(repo)),
    title,
    body: typeof body.body === "string" ? body.body : null,
    state: "open",
    user: ctx.state.currentLogin,
    labels,
    assignees,
    comments: 0,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    pull: null,
  };
  ctx.state.issues.push(issue);
  const rendered = renderIssue(urls(ctx), ctx.state, issue);
  return { status: 201, body: rendered, headers: { location: String(rendered.url) } };
}

/** A comment on an issue or pull request, as the token's user. */
function createComment(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const issue = ctx.state.issues.find(
    (i) => i.repo === fullName(repo) && i.number === Number(ctx.params.number),
  );
  if (!issue) throw GithubHttpError.notFound();
  const body = isRecord(ctx.body) ? ctx.body.body : undefined;
  if (typeof body !== "string" || !body.trim())
    throw new GithubHttpError(422, "Validation Failed", [
      { resource: "IssueComment", field: "body", code: "missing_field" },
    ]);
  const comment = {
    id: ctx.state.nextId++,
    repo: fullName(repo),
    number: issue.number,
    user: ctx.state.currentLogin,
    body,
    createdAt: new Date(),
  };
  ctx.state.issueComments.push(comment);
  issue.comments += 1;
  const url = `${ctx.apiUrl}/repos/${comment.repo}/issues/comments/${comment.id}`;
  return {
    status: 201,
    body: {
      id: comment.id,
      url,
      body,
      user: { login: comment.user },
      created_at: comment.createdAt.toISOString(),
    },
    headers: { location: url },
  };
}

export function issueRoutes(router: Router): void {
  router
    .on("GET", "/repos/{owner}/{repo}/issues", listIssues)
    .on("POST", "/repos/{owner}/{repo}/issues", createIssue)
    .on("GET", "/repos/{owner}/{repo}/issues/{number}", getIssue)
    .on("POST", "/repos/{owner}/{repo}/issues/{number}/comments", createComment);
}
