import { GithubHttpError } from "../http.js";
import { paginate } from "../paginate.js";
import { renderRepo } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { canAccess, findAccount } from "../state.js";
import { requireRepo, urls } from "./lookup.js";
import { sortRepos } from "./user.js";

function orgRepos(ctx: RouteContext): RouteResult {
  const org = findAccount(ctx.state, ctx.params.org ?? "");
  if (org?.type !== "Organization") throw GithubHttpError.notFound();
  const type = ctx.query.get("type") ?? "all";
  const member = org.members.includes(ctx.state.currentLogin);
  const repos = ctx.state.repos.filter((r) => {
    if (r.owner !== org.login) return false;
    if (r.private && !canAccess(ctx.state, r)) return false;
    if (type === "public") return !r.private;
    if (type === "private") return r.private;
    if (type === "forks") return r.fork;
    if (type === "sources") return !r.fork;
    if (type === "member") return member;
    return true;
  });
  const { page, headers } = paginate(ctx, sortRepos(ctx, repos, "created"));
  return { status: 200, body: page.map((r) => renderRepo(urls(ctx), ctx.state, r)), headers };
}

function getRepo(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const owner = findAccount(ctx.state, repo.owner);
  return {
    status: 200,
    body: {
      ...renderRepo(urls(ctx), ctx.state, repo),
      network_count: 0,
      subscribers_count: 1,
      ...(owner?.type === "Organization"
        ? { organization: renderRepo(urls(ctx), ctx.state, repo).owner }
        : {}),
    },
  };
}

export function repoRoutes(router: Router): void {
  router.on("GET", "/orgs/{org}/repos", orgRepos).on("GET", "/repos/{owner}/{repo}", getRepo);
}
