import { GithubHttpError, isRecord } from "../http.js";
import { paginate, sortBy } from "../paginate.js";
import { renderPull } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { nextNumber } from "../seed.js";
import { fullName, type IssueRecord } from "../state.js";
import { validAssignees } from "./issues.js";
import { requireRepo, urls } from "./lookup.js";

function listPulls(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const q = ctx.query;
  const state = q.get("state") ?? "open";
  const head = q.get("head");
  const base = q.get("base");
  const found = ctx.state.issues.filter(
    (i) =>
      i.pull !== null &&
      i.repo === fullName(repo) &&
      (state === "all" || i.state === state) &&
      (!head || `${repo.owner}:${i.pull.head}` === head || i.pull.head === head) &&
      (!base || i.pull.base === base),
  );
  const sort = q.get("sort") ?? "created";
  const key = (i: IssueRecord) => (sort === "updated" ? i.updatedAt : i.createdAt).getTime();
  const { page, headers } = paginate(ctx, sortBy(found, key, q.get("direction"), "desc"));
  return { status: 200, body: page.map((i) => renderPull(urls(ctx), ctx.state, i, false)), headers };
}

function getPull(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const pull = ctx.state.issues.find(
    (i) => i.repo === fullName(repo) && i.number === Number(ctx.params.number) && i.pull,
  );
  if (!pull) throw GithubHttpError.notFound();
  return { status: 200, body: renderPull(urls(ctx), ctx.state, pull, true) };
}

/** Opens a pull request; the branches must exist, differ, and have no open pull request already. */
function createPull(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const body = isRecord(ctx.body) ? ctx.body : {};
  for (const key of ["head", "base"]) {
    if (typeof body[key] !== "string") throw GithubHttpError.invalidRequest(`"${key}" wasn't supplied.`);
  }
  const head = String(body.head).replace(new RegExp(`^${repo.owner}:`, "i"), "");
  const base = String(body.base);
  const title = typeof body.title === "string" ? body.title.trim() : "";
  if (title === "")
    throw GithubHttpError.validation({ resource: "PullRequest", code: "missing_field", field: "title" });
  const badBranches = [
    ...(repo.branches[head] ? [] : [{ resource: "PullRequest", field: "head", code: "invalid" as const }]),
    ...(repo.branches[base] ? [] : [{ resource: "PullRequest", field: "base", code: "invalid" as const }]),
  ];
  if (badBranches.length > 0) throw GithubHttpError.validation(...badBranches);
  if (repo.branches[head] === repo.branches[base]) {
    throw GithubHttpError.validation({
      resource: "PullRequest",
      code: "custom",
      message: `No commits between ${base} and ${head}`,
    });
  }
  const existing = ctx.state.issues.find(
    (i) => i.repo === fullName(repo) && i.state === "open" && i.pull?.head === head,
  );
  if (existing) {
    throw GithubHttpError.validation({
      resource: "PullRequest",
      code: "custom",
      message: `A pull request already exists for ${repo.owner}:${head}.`,
    });
  }
  const assignees = validAssignees(ctx, body, "PullRequest");
  const now = new Date();
  const pull: IssueRecord = {
    id: ctx.state.nextId++,
    repo: fullName(repo),
    number: nextNumber(ctx.state, fullName(repo)),
    title,
    body: typeof body.body === "string" ? body.body : null,
    state: "open",
    user: ctx.state.currentLogin,
    labels: [],
    assignees,
    comments: 0,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    pull: {
      head,
      base,
      headSha: repo.branches[head] ?? "",
      draft: body.draft === true,
      mergedAt: null,
      mergedBy: null,
      commits: 1,
      additions: 10,
      deletions: 2,
      changedFiles: 1,
    },
  };
  ctx.state.issues.push(pull);
  const rendered = renderPull(urls(ctx), ctx.state, pull, true);
  return { status: 201, body: rendered, headers: { location: String(rendered.url) } };
}

export function pullRoutes(router: Router): void {
  router
    .on("GET", "/repos/{owner}/{repo}/pulls", listPulls)
    .on("POST", "/repos/{owner}/{repo}/pulls", createPull)
    .on("GET", "/repos/{owner}/{repo}/pulls/{number}", getPull);
}
