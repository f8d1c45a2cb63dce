import { type Handler, isRecord, type RouteContext, VendorHttpError } from "../vendor-server.js";
import type { GitLabState, Issue, MergeRequest, Project } from "./state.js";

const API = "/api/v4";
const MR_STATES = new Set(["opened", "closed", "merged", "all"]);
const PIPELINE_STATUSES = new Set([
  "created",
  "pending",
  "running",
  "success",
  "failed",
  "canceled",
  "skipped",
]);

/** The project behind `:id`: its number, or its URL-encoded full path (`platform%2Fdeploy-tools`). */
function findProject(state: GitLabState, id: string): Project {
  const project = state.projects.find((one) => String(one.id) === id || one.path_with_namespace === id);
  if (!project) throw new VendorHttpError(404, "404 Project Not Found");
  return project;
}

/** GitLab's offset pagination: `page`, `per_page` (default 20, at most 100) and the x-* headers. */
function paged<T>(items: T[], query: URLSearchParams) {
  const perPage = Math.min(Number(query.get("per_page") ?? 20) || 20, 100);
  const page = Math.max(Number(query.get("page") ?? 1) || 1, 1);
  const totalPages = Math.max(Math.ceil(items.length / perPage), 1);
  return {
    status: 200,
    body: items.slice((page - 1) * perPage, page * perPage),
    headers: {
      "x-page": String(page),
      "x-per-page": String(perPage),
      "x-total": String(items.length),
      "x-total-pages": String(totalPages),
      ...(page < totalPages ? { "x-next-page": String(page + 1) } : {}),
    },
  };
}

/** A required string field of a JSON body; GitLab answers 400 `{ error: "<field> is missing" }`. */
function required(body: unknown, field: string): string {
  const value = isRecord(body) ? body[field] : undefined;
  if (typeof value !== "string" || !value.trim()) throw new VendorHttpError(400, `${field} is missing`);
  return value.trim();
}

function optional(body: unknown, field: string): string {
  const value = isRecord(body) ? body[field] : undefined;
  return typeof value === "string" ? value : "";
}

function oneOf(query: URLSearchParams, name: string, allowed: Set<string>): string | null {
  const value = query.get(name);
  if (value !== null && !allowed.has(value))
    throw new VendorHttpError(400, `${name} does not have a valid value`);
  return value;
}

export function gitLabRoutes(state: GitLabState): Array<["GET" | "POST", string, Handler]> {
  const project = (ctx: RouteContext) => findProject(state, ctx.params.id ?? "");

  const listProjects: Handler = ({ query }) => {
    const search = (query.get("search") ?? "").toLowerCase();
    const projects = state.projects
      .filter((one) => !search || one.path_with_namespace.toLowerCase().includes(search))
      .map(({ branches: _branches, ...rest }) => rest);
    return paged(projects, query);
  };

  const showProject: Handler = (ctx) => {
    const { branches: _branches, ...rest } = project(ctx);
    return { status: 200, body: rest };
  };

  const listMergeRequests: Handler = (ctx) => {
    const { id } = project(ctx);
    const wanted = oneOf(ctx.query, "state", MR_STATES) ?? "all";
    const mrs = state.mergeRequests
      .filter((one) => one.project_id === id && (wanted === "all" || one.state === wanted))
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    return paged(mrs, ctx.query);
  };

  const createMergeRequest: Handler = (ctx) => {
    const target = project(ctx);
    const source = required(ctx.body, "source_branch");
    const into = required(ctx.body, "target_branch");
    const title = required(ctx.body, "title");
    for (const branch of [source, into]) {
      if (!target.branches.includes(branch)) throw new VendorHttpError(404, "404 Branch Not Found");
    }
    const open = state.mergeRequests.find(
      (one) => one.project_id === target.id && one.state === "opened" && one.source_branch === source,
    );
    if (open) {
      throw new VendorHttpError(
        409,
        `Another open merge request already exists for this source branch: !${open.iid}`,
      );
    }
    const iid =
      Math.max(
        0,
        ...state.mergeRequests.filter((one) => one.project_id === target.id).map((one) => one.iid),
      ) + 1;
    const now = new Date().toISOString();
    const mr: MergeRequest = {
      id: state.nextId++,
      iid,
      project_id: target.id,
      title,
      description: optional(ctx.body, "description"),
      state: "opened",
      source_branch: source,
      target_branch: into,
      author: state.user,
      draft: /^(draft:|\[draft\])/i.test(title),
      web_url: `${target.web_url}/-/merge_requests/${iid}`,
      created_at: now,
      updated_at: now,
    };
    state.mergeRequests.push(mr);
    state.changes.push({ action: "create_merge_request", project: target.path_with_namespace, ref: iid });
    return { status: 201, body: mr };
  };

  const listPipelines: Handler = (ctx) => {
    const { id } = project(ctx);
    const status = oneOf(ctx.query, "status", PIPELINE_STATUSES);
    const ref = ctx.query.get("ref");
    const pipelines = state.pipelines
      .filter(
        (one) => one.project_id === id && (!status || one.status === status) && (!ref || one.ref === ref),
      )
      .sort((a, b) => b.id - a.id);
    return paged(pipelines, ctx.query);
  };

  const retryPipeline: Handler = (ctx) => {
    const target = project(ctx);
    const pipeline = state.pipelines.find(
      (one) => one.project_id === target.id && String(one.id) === ctx.params.pipeline_id,
    );
    if (!pipeline) throw new VendorHttpError(404, "404 Not found");
    // GitLab retries only the failed or canceled jobs; a pipeline with none is refused.
    if (pipeline.status !== "failed" && pipeline.status !== "canceled")
      throw new VendorHttpError(403, "403 Forbidden");
    pipeline.status = "running";
    pipeline.updated_at = new Date().toISOString();
    state.changes.push({ action: "retry_pipeline", project: target.path_with_namespace, ref: pipeline.id });
    return { status: 201, body: pipeline };
  };

  const createIssue: Handler = (ctx) => {
    const target = project(ctx);
    const title = required(ctx.body, "title");
    const iid =
      Math.max(0, ...state.issues.filter((one) => one.project_id === target.id).map((one) => one.iid)) + 1;
    const labels = optional(ctx.body, "labels");
    const issue: Issue = {
      id: state.nextId++,
      iid,
      project_id: target.id,
      title,
      description: optional(ctx.body, "description"),
      state: "opened",
      labels: labels ? labels.split(",").map((one) => one.trim()) : [],
      author: state.user,
      web_url: `${target.web_url}/-/issues/${iid}`,
      created_at: new Date().toISOString(),
    };
    state.issues.push(issue);
    state.changes.push({ action: "create_issue", project: target.path_with_namespace, ref: iid });
    return { status: 201, body: issue };
  };

  return [
    ["GET", `${API}/projects`, listProjects],
    ["GET", `${API}/projects/{id}`, showProject],
    ["GET", `${API}/projects/{id}/merge_requests`, listMergeRequests],
    ["POST", `${API}/projects/{id}/merge_requests`, createMergeRequest],
    ["GET", `${API}/projects/{id}/pipelines`, listPipelines],
    ["POST", `${API}/projects/{id}/pipelines/{pipeline_id}/retry`, retryPipeline],
    ["POST", `${API}/projects/{id}/issues`, createIssue],
  ];
}
