import { JiraHttpError } from "../http.js";
import { renderProject } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { findProject } from "../state.js";

function searchProjects(ctx: RouteContext): RouteResult {
  const startAt = Number(ctx.query.get("startAt") ?? 0);
  const maxResults = Number(ctx.query.get("maxResults") ?? 50);
  const text = ctx.query.get("query")?.toLowerCase();
  const keys = ctx.query
    .getAll("keys")
    .flatMap((k) => k.split(","))
    .map((k) => k.toUpperCase());
  const found = ctx.state.projects.filter(
    (p) =>
      (!text || p.key.toLowerCase().includes(text) || p.name.toLowerCase().includes(text)) &&
      (keys.length === 0 || keys.includes(p.key)),
  );
  const page = found.slice(startAt, startAt + maxResults);
  return {
    status: 200,
    body: {
      self: `${ctx.baseUrl}/rest/api/3/project/search?startAt=${startAt}&maxResults=${maxResults}`,
      maxResults,
      startAt,
      total: found.length,
      isLast: startAt + page.length >= found.length,
      values: page.map((p) => renderProject(ctx.baseUrl, ctx.state, p)),
    },
  };
}

function allProjects(ctx: RouteContext): RouteResult {
  return { status: 200, body: ctx.state.projects.map((p) => renderProject(ctx.baseUrl, ctx.state, p)) };
}

function getProject(ctx: RouteContext): RouteResult {
  const project = findProject(ctx.state, ctx.params.projectIdOrKey ?? "");
  if (!project) throw JiraHttpError.messages(404, "No project could be found with key or id given.");
  return { status: 200, body: renderProject(ctx.baseUrl, ctx.state, project) };
}

export function projectRoutes(router: Router): void {
  router
    .on("GET", "/rest/api/3/project/search", searchProjects)
    .on("GET", "/rest/api/3/project", allProjects)
    .on("GET", "/rest/api/3/project/{projectIdOrKey}", getProject);
}
