import type { GitLabState, MergeRequest, Pipeline, Project } from "./state.js";

const WEB = "https://gitlab.example.com";

/** Two projects, two merge requests (one open), three pipelines (one failed on a feature branch). */
export function seedGitLab(now = new Date()): GitLabState {
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  const project = (id: number, path: string, description: string, branches: string[]): Project => ({
    id,
    name: path.split("/").at(-1) ?? path,
    path_with_namespace: path,
    description,
    default_branch: "main",
    web_url: `${WEB}/${path}`,
    last_activity_at: at(30),
    branches: ["main", ...branches],
  });
  const projects = [
    project(11, "platform/deploy-tools", "Deployment tooling for the platform team", [
      "feature/helm-lint",
      "fix/timeout",
    ]),
    project(12, "platform/infra-live", "Terraform for the live environments", ["feature/eks-1-30"]),
  ];
  const user = { id: 7, username: "platform-bot", name: "Platform Bot" };
  const mr = (
    id: number,
    iid: number,
    title: string,
    state: MergeRequest["state"],
    source: string,
  ): MergeRequest => ({
    id,
    iid,
    project_id: 11,
    title,
    description: "",
    state,
    source_branch: source,
    target_branch: "main",
    author: { id: 3, username: "dana", name: "Dana Dev" },
    draft: false,
    web_url: `${WEB}/platform/deploy-tools/-/merge_requests/${iid}`,
    created_at: at(120 + iid),
    updated_at: at(60 + iid),
  });
  const pipeline = (id: number, status: Pipeline["status"], ref: string, minutesAgo: number): Pipeline => ({
    id,
    iid: id - 900,
    project_id: 11,
    status,
    ref,
    sha: `${id}abcdef0123456789`.slice(0, 16),
    source: "push",
    web_url: `${WEB}/platform/deploy-tools/-/pipelines/${id}`,
    created_at: at(minutesAgo),
    updated_at: at(minutesAgo),
  });
  return {
    projects,
    mergeRequests: [
      mr(501, 1, "Lint Helm charts in CI", "opened", "feature/helm-lint"),
      mr(502, 2, "Bump kubectl to 1.30", "merged", "chore/kubectl"),
    ],
    pipelines: [
      pipeline(903, "failed", "fix/timeout", 10),
      pipeline(902, "success", "main", 40),
      pipeline(901, "success", "feature/helm-lint", 90),
    ],
    issues: [],
    changes: [],
    user,
    nextId: 1000,
  };
}
