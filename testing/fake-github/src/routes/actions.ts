import { GithubHttpError } from "../http.js";
import { paginate, sortBy } from "../paginate.js";
import { renderRun } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { fullName, type WorkflowRunRecord } from "../state.js";
import { requireRepo, urls } from "./lookup.js";

const conclusions = new Set([
  "success",
  "failure",
  "cancelled",
  "skipped",
  "timed_out",
  "neutral",
  "action_required",
]);

/** `status` filters by status or by conclusion, as GitHub's `status` parameter does. */
function matchesStatus(run: WorkflowRunRecord, status: string | null): boolean {
  if (!status) return true;
  return conclusions.has(status) ? run.conclusion === status : run.status === status;
}

function listRuns(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const q = ctx.query;
  const found = ctx.state.runs.filter(
    (r) =>
      r.repo === fullName(repo) &&
      matchesStatus(r, q.get("status")) &&
      (!q.get("branch") || r.headBranch === q.get("branch")) &&
      (!q.get("event") || r.event === q.get("event")) &&
      (!q.get("actor") || r.actor === q.get("actor")) &&
      (!q.get("head_sha") || r.headSha === q.get("head_sha")),
  );
  const sorted = sortBy(found, (r) => r.createdAt.getTime(), "desc", "desc");
  const { page, headers } = paginate(ctx, sorted);
  return {
    status: 200,
    body: { total_count: found.length, workflow_runs: page.map((r) => renderRun(urls(ctx), ctx.state, r)) },
    headers,
  };
}

function getRun(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const run = ctx.state.runs.find((r) => r.repo === fullName(repo) && r.id === Number(ctx.params.runId));
  if (!run) throw GithubHttpError.notFound();
  return { status: 200, body: renderRun(urls(ctx), ctx.state, run) };
}

export function actionRoutes(router: Router): void {
  router
    .on("GET", "/repos/{owner}/{repo}/actions/runs", listRuns)
    .on("GET", "/repos/{owner}/{repo}/actions/runs/{runId}", getRun);
}
