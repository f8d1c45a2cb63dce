import { GithubHttpError } from "../http.js";
import { paginate, sortBy } from "../paginate.js";
import { renderRepo, renderViewer } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { canAccess, findAccount, fullName, type RepoRecord } from "../state.js";
import { urls } from "./lookup.js";

function viewer(ctx: RouteContext): RouteResult {
  return { status: 200, body: renderViewer(urls(ctx), ctx.state) };
}

/** Sorting shared by the repository lists: full_name ascends by default, dates descend. */
export function sortRepos(ctx: RouteContext, repos: RepoRecord[], defaultSort: string): RepoRecord[] {
  const sort = ctx.query.get("sort") ?? defaultSort;
  const direction = ctx.query.get("direction");
  if (sort === "full_name") return sortBy(repos, (r) => fullName(r).toLowerCase(), direction, "asc");
  const key = sort === "updated" ? "updatedAt" : sort === "pushed" ? "pushedAt" : "createdAt";
  return sortBy(repos, (r) => r[key].getTime(), direction, "desc");
}

function viewerRepos(ctx: RouteContext): RouteResult {
  const { state } = ctx;
  const me = state.currentLogin;
  const type = ctx.query.get("type") ?? "all";
  const visibility = ctx.query.get("visibility") ?? "all";
  const affiliation = (ctx.query.get("affiliation") ?? "owner,collaborator,organization_member").split(",");
  let repos = state.repos.filter((r) => {
    const owned = r.owner === me;
    const viaOrg = !owned && canAccess(state, r);
    if (type === "owner") return owned;
    if (type === "member") return viaOrg;
    return (
      (owned && affiliation.includes("owner")) || (viaOrg && affiliation.includes("organization_member"))
    );
  });
  if (type === "public" || visibility === "public") repos = repos.filter((r) => !r.private);
  if (type === "private" || visibility === "private") repos = repos.filter((r) => r.private);
  const { page, headers } = paginate(ctx, sortRepos(ctx, repos, "full_name"));
  return { status: 200, body: page.map((r) => renderRepo(urls(ctx), state, r)), headers };
}

function userRepos(ctx: RouteContext): RouteResult {
  const account = findAccount(ctx.state, ctx.params.username ?? "");
  if (!account) throw GithubHttpError.notFound();
  const repos = ctx.state.repos.filter((r) => r.owner === account.login && !r.private);
  const { page, headers } = paginate(ctx, sortRepos(ctx, repos, "full_name"));
  return { status: 200, body: page.map((r) => renderRepo(urls(ctx), ctx.state, r)), headers };
}

export function userRoutes(router: Router): void {
  router
    .on("GET", "/user", viewer)
    .on("GET", "/user/repos", viewerRepos)
    .on("GET", "/users/{username}/repos", userRepos);
}
