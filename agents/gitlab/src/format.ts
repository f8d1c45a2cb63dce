/** The fields of GitLab REST API v4 answers that the tools show. */
export interface GitLabProject {
  id: number;
  path_with_namespace: string;
  description?: string | null;
  default_branch?: string;
  last_activity_at?: string;
}

export interface GitLabMergeRequest {
  iid: number;
  title: string;
  state: string;
  source_branch: string;
  target_branch: string;
  author?: { username: string };
  draft?: boolean;
  updated_at?: string;
  web_url?: string;
}

export interface GitLabPipeline {
  id: number;
  status: string;
  ref: string;
  source?: string;
  created_at?: string;
  web_url?: string;
}

const day = (timestamp: string | undefined) => timestamp?.slice(0, 10) ?? "?";

export function formatProject(project: GitLabProject): string {
  const description = project.description ? ` — ${project.description}` : "";
  return `${project.path_with_namespace} (id ${project.id}, default branch ${project.default_branch ?? "?"})${description}`;
}

/** `!1 [opened] Lint Helm charts in CI (feature/helm-lint → main, by dana, updated 2025-01-02)`. */
export function formatMergeRequest(mr: GitLabMergeRequest): string {
  const draft = mr.draft ? " draft" : "";
  return (
    `!${mr.iid} [${mr.state}${draft}] ${mr.title} (${mr.source_branch} → ${mr.target_branch}, ` +
    `by ${mr.author?.username ?? "?"}, updated ${day(mr.updated_at)})`
  );
}

/** `pipeline 903 [failed] on fix/timeout (push, 2025-01-02)`. */
export function formatPipeline(pipeline: GitLabPipeline): string {
  return `pipeline ${pipeline.id} [${pipeline.status}] on ${pipeline.ref} (${pipeline.source ?? "?"}, ${day(pipeline.created_at)})`;
}
