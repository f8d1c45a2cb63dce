/** The fields of GitLab REST API v4 objects that the fake keeps; answers carry these as GitLab names them. */
export interface Project {
  id: number;
  name: string;
  path_with_namespace: string;
  description: string;
  default_branch: string;
  web_url: string;
  last_activity_at: string;
  /** Branch names: merge requests need both ends to exist. */
  branches: string[];
}

export interface UserRef {
  id: number;
  username: string;
  name: string;
}

export interface MergeRequest {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string;
  state: "opened" | "closed" | "merged";
  source_branch: string;
  target_branch: string;
  author: UserRef;
  draft: boolean;
  web_url: string;
  created_at: string;
  updated_at: string;
}

export interface Pipeline {
  id: number;
  iid: number;
  project_id: number;
  status: "created" | "pending" | "running" | "success" | "failed" | "canceled" | "skipped";
  ref: string;
  sha: string;
  source: string;
  web_url: string;
  created_at: string;
  updated_at: string;
}

export interface Issue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string;
  state: "opened" | "closed";
  labels: string[];
  author: UserRef;
  web_url: string;
  created_at: string;
}

/** One change made through the API, for tests: what and where. */
export interface GitLabChange {
  action: "create_merge_request" | "create_issue" | "retry_pipeline";
  project: string;
  /** The merge request's or issue's iid, the pipeline's id. */
  ref: number;
}

export interface GitLabState {
  projects: Project[];
  mergeRequests: MergeRequest[];
  pipelines: Pipeline[];
  issues: Issue[];
  changes: GitLabChange[];
  user: UserRef;
  nextId: number;
}
