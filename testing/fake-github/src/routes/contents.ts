import { createHash } from "node:crypto";
import { GithubHttpError } from "../http.js";
import { paginate } from "../paginate.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { canAccess, collaborators, findAccount, fullName, type RepoRecord } from "../state.js";
import { requireRepo } from "./lookup.js";

/** A file's blob SHA as git computes it, so an unchanged file keeps its SHA. */
export function blobSha(content: string): string {
  const bytes = Buffer.from(content);
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** A ref GitHub would resolve here: a branch name, or one of the branches' head SHAs. */
function requireRef(repo: RepoRecord, ref: string | null): string {
  const wanted = ref ?? repo.defaultBranch;
  const branch = Object.entries(repo.branches).find(([name, head]) => name === wanted || head === wanted);
  if (!branch) throw GithubHttpError.notFound();
  return branch[1];
}

/** The folders a set of file paths implies (`docs/adr/1.md`: `docs`, `docs/adr`). */
function folders(paths: string[]): string[] {
  const all = new Set<string>();
  for (const path of paths) {
    const parts = path.split("/");
    for (let at = 1; at < parts.length; at++) all.add(parts.slice(0, at).join("/"));
  }
  return [...all];
}

// GET /repos/{owner}/{repo}/git/trees/{tree_sha}?recursive=1: the whole tree (without recursive: the root).
function getTree(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const sha = requireRef(repo, ctx.params.sha ?? null);
  const recursive = ctx.query.has("recursive");
  const base = `${ctx.apiUrl}/repos/${fullName(repo)}/git`;
  const files = Object.entries(repo.files).filter(([path]) => recursive || !path.includes("/"));
  const trees = folders(Object.keys(repo.files)).filter((path) => recursive || !path.includes("/"));
  return {
    status: 200,
    body: {
      sha,
      url: `${base}/trees/${sha}`,
      tree: [
        ...trees.map((path) => ({ path, mode: "040000", type: "tree", sha: blobSha(`tree ${path}`) })),
        ...files.map(([path, content]) => ({
          path,
          mode: "100644",
          type: "blob",
          sha: blobSha(content),
          size: Buffer.byteLength(content),
          url: `${base}/blobs/${blobSha(content)}`,
        })),
      ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      truncated: false,
    },
  };
}

// GET /repos/{owner}/{repo}/git/blobs/{file_sha}: a file's content, base64.
function getBlob(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  const content = Object.values(repo.files).find((one) => blobSha(one) === ctx.params.sha);
  if (content === undefined) throw GithubHttpError.notFound();
  return {
    status: 200,
    body: {
      sha: ctx.params.sha,
      node_id: `B_${ctx.params.sha}`,
      size: Buffer.byteLength(content),
      url: `${ctx.apiUrl}/repos/${fullName(repo)}/git/blobs/${ctx.params.sha}`,
      content: Buffer.from(content).toString("base64").replace(/.{60}/g, "$&\n"),
      encoding: "base64",
    },
  };
}

// GET /repos/{owner}/{repo}/collaborators: who has access; GitHub answers only those with push access.
function getCollaborators(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  if (!canAccess(ctx.state, repo)) {
    throw new GithubHttpError(403, "Must have push access to view repository collaborators.");
  }
  const users = collaborators(ctx.state, repo).map((login) => ({
    login,
    id: findAccount(ctx.state, login)?.id ?? 0,
    type: "User",
    site_admin: false,
    permissions: { pull: true, triage: true, push: true, maintain: false, admin: login === repo.owner },
    role_name: "write",
  }));
  const { page, headers } = paginate(ctx, users);
  return { status: 200, body: page, headers };
}

// GET /repos/{owner}/{repo}/teams: the organization's teams with access.
function getTeams(ctx: RouteContext): RouteResult {
  const repo = requireRepo(ctx);
  if (!canAccess(ctx.state, repo)) throw GithubHttpError.notFound();
  const teams = repo.teams.map((slug, index) => ({
    id: index + 1,
    slug,
    name: slug,
    permission: "pull",
    privacy: "closed",
  }));
  const { page, headers } = paginate(ctx, teams);
  return { status: 200, body: page, headers };
}

export function contentRoutes(router: Router): void {
  router
    .on("GET", "/repos/{owner}/{repo}/git/trees/{sha}", getTree)
    .on("GET", "/repos/{owner}/{repo}/git/blobs/{sha}", getBlob)
    .on("GET", "/repos/{owner}/{repo}/collaborators", getCollaborators)
    .on("GET", "/repos/{owner}/{repo}/teams", getTeams);
}
