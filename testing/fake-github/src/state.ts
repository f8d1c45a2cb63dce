export interface AccountRecord {
  login: string;
  id: number;
  type: "User" | "Organization";
  name: string;
  email: string | null;
  /** Organization members, by login. */
  members: string[];
  createdAt: Date;
}

export interface RepoRecord {
  id: number;
  owner: string;
  name: string;
  description: string | null;
  private: boolean;
  fork: boolean;
  archived: boolean;
  language: string | null;
  topics: string[];
  defaultBranch: string;
  /** Branch name to head commit SHA. */
  branches: Record<string, string>;
  stars: number;
  createdAt: Date;
  updatedAt: Date;
  pushedAt: Date;
  /** The default branch's files, path to content (every branch reads the same files). */
  files: Record<string, string>;
  /** Teams of the owning organization with access, by slug. */
  teams: string[];
  /** Users added to the repository itself; unset: the owner's members (see collaborators). */
  collaborators?: string[];
}

export interface PullInfo {
  head: string;
  base: string;
  headSha: string;
  draft: boolean;
  mergedAt: Date | null;
  mergedBy: string | null;
  commits: number;
  additions: number;
  deletions: number;
  changedFiles: number;
}

/** Issues and pull requests share one numbering per repository, as on GitHub. */
export interface IssueRecord {
  id: number;
  /** `owner/name`. */
  repo: string;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  user: string;
  labels: string[];
  assignees: string[];
  comments: number;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  pull: PullInfo | null;
}

export interface WorkflowRunRecord {
  id: number;
  repo: string;
  workflowId: number;
  name: string;
  path: string;
  displayTitle: string;
  headBranch: string;
  headSha: string;
  event: string;
  status: "queued" | "in_progress" | "completed" | "waiting" | "requested" | "pending";
  conclusion:
    | "success"
    | "failure"
    | "cancelled"
    | "skipped"
    | "timed_out"
    | "neutral"
    | "action_required"
    | null;
  runNumber: number;
  actor: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface RequestRecord {
  method: string;
  /** Path as the client sent it, including the `/api/v3` prefix, without the query. */
  path: string;
  query: Record<string, string>;
  /** The scheme the client used (`token` or `bearer`), or `none`. */
  auth: "token" | "bearer" | "none" | "other";
  /** The token it came with (the fake keeps it to show whose calls these were). */
  token?: string;
  body: unknown;
  status: number;
}

/** Everything the fake knows; tests read and change it directly. */
export interface FakeGithubState {
  accounts: AccountRecord[];
  repos: RepoRecord[];
  issues: IssueRecord[];
  runs: WorkflowRunRecord[];
  requests: RequestRecord[];
  /** The login the token authenticates as. */
  currentLogin: string;
  nextId: number;
}

export function fullName(repo: RepoRecord): string {
  return `${repo.owner}/${repo.name}`;
}

export function findAccount(state: FakeGithubState, login: string): AccountRecord | undefined {
  return state.accounts.find((a) => a.login.toLowerCase() === login.toLowerCase());
}

/** Whether the current user may see and write to the repository: its owner or a member of its org. */
export function canAccess(state: FakeGithubState, repo: RepoRecord): boolean {
  if (repo.owner.toLowerCase() === state.currentLogin.toLowerCase()) return true;
  return findAccount(state, repo.owner)?.members.includes(state.currentLogin) ?? false;
}

/** Logins that can be assigned in the repository. */
export function collaborators(state: FakeGithubState, repo: RepoRecord): string[] {
  if (repo.collaborators) return repo.collaborators;
  const owner = findAccount(state, repo.owner);
  return owner?.type === "Organization" ? owner.members : [repo.owner];
}
