import { GithubHttpError } from "../http.js";
import type { RouteContext } from "../router.js";
import { canAccess, fullName, type RepoRecord } from "../state.js";

/** The repository in the path; private repositories the viewer cannot access are 404, as on GitHub. */
export function requireRepo(ctx: RouteContext): RepoRecord {
  const owner = (ctx.params.owner ?? "").toLowerCase();
  const name = (ctx.params.repo ?? "").toLowerCase();
  const repo = ctx.state.repos.find((r) => fullName(r).toLowerCase() === `${owner}/${name}`);
  if (!repo || (repo.private && !canAccess(ctx.state, repo))) throw GithubHttpError.notFound();
  return repo;
}

export function urls(ctx: RouteContext) {
  return { api: ctx.apiUrl, web: ctx.webUrl };
}
