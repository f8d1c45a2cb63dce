import { nextAfter, seedParts } from "../seed.js";
import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { gitLabRoutes } from "./routes.js";
import { seedGitLab } from "./seed.js";
import type { GitLabChange, GitLabState } from "./state.js";

export type { GitLabChange, GitLabState, Issue, MergeRequest, Pipeline, Project } from "./state.js";

/** Parts of the state a test or an evaluation case can seed, each replacing the default part. */
export type GitLabSeed = Partial<
  Pick<GitLabState, "projects" | "mergeRequests" | "pipelines" | "issues" | "user">
>;

export interface FakeGitLab extends VendorServer {
  /** The access token it accepts in the PRIVATE-TOKEN header: GITLAB_TOKEN. */
  token: string;
  state: GitLabState;
  /** Merge requests and issues opened and pipelines retried through the API, oldest first. */
  readonly changes: GitLabChange[];
}

/** Starts a GitLab REST API v4 look-alike (projects, merge requests, pipelines, issues) for the real @gitbeaker/rest client. */
export async function startFakeGitLab(
  options: { token?: string; port?: number; seed?: GitLabSeed } = {},
): Promise<FakeGitLab> {
  const token = options.token ?? "glpat-fake-gitlab-token";
  const defaults = seedGitLab();
  const state: GitLabState = {
    ...defaults,
    ...seedParts("GitLab", defaults, options.seed, [
      "projects",
      "mergeRequests",
      "pipelines",
      "issues",
      "user",
    ]),
  };
  state.nextId = nextAfter(
    state.nextId,
    [...state.projects, ...state.mergeRequests, ...state.pipelines, ...state.issues].map((one) => one.id),
  );
  const server = await startVendorServer(
    {
      name: "GitLab",
      routes: gitLabRoutes(state),
      checkRequest: ({ headers }) => {
        const bearer = headers.authorization === `Bearer ${token}`;
        if (headers["private-token"] !== token && !bearer) throw new VendorHttpError(401, "401 Unauthorized");
      },
      // GitLab's error body: `{ message }` for most failures, `{ error }` for a missing parameter.
      errorBody: (error) => (error.status === 400 ? { error: error.message } : { message: error.message }),
    },
    options.port,
  );
  return {
    ...server,
    token,
    state,
    get changes() {
      return state.changes;
    },
  };
}
