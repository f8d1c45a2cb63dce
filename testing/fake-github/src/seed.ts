import { createHash } from "node:crypto";
import type { AccountRecord, FakeGithubState, IssueRecord, RepoRecord, WorkflowRunRecord } from "./state.js";

export interface AccountSeed {
  login: string;
  type?: "User" | "Organization";
  name?: string;
  email?: string | null;
  members?: string[];
}

export interface RepoSeed {
  /** `owner/name`; the owner must be a seeded account. */
  fullName: string;
  description?: string;
  private?: boolean;
  language?: string;
  topics?: string[];
  defaultBranch?: string;
  /** Extra branches besides the default one. */
  branches?: string[];
  createdAt?: string;
  /** Files on the default branch, path to content. */
  files?: Record<string, string>;
  /** Teams with access (organization repositories), by slug. */
  teams?: string[];
  /** Users with access; default: the owner, or the organization's members. */
  collaborators?: string[];
}

export interface IssueSeed {
  repo: string;
  title: string;
  body?: string;
  state?: "open" | "closed";
  user?: string;
  labels?: string[];
  assignees?: string[];
  createdAt?: string;
  closedAt?: string;
  /** Makes it a pull request from `head` into `base`. */
  pull?: { head: string; base?: string; draft?: boolean; merged?: boolean };
}

export interface RunSeed {
  repo: string;
  workflow?: string;
  branch?: string;
  event?: string;
  status?: WorkflowRunRecord["status"];
  conclusion?: WorkflowRunRecord["conclusion"];
  actor?: string;
  title?: string;
  createdAt?: string;
}

export interface GithubSeed {
  /** Login the token authenticates as; must be one of `accounts`. */
  viewer: string;
  accounts: AccountSeed[];
  repos: RepoSeed[];
  issues: IssueSeed[];
  runs: RunSeed[];
}

/** User `octo-dev` in org `acme` (with `mona`), three repositories, PRs, issues and CI runs. */
export function defaultGithubSeed(): GithubSeed {
  return {
    viewer: "octo-dev",
    accounts: [
      { login: "octo-dev", name: "Octo Dev", email: "octo-dev@example.com" },
      { login: "mona", name: "Mona Lisa", email: "mona@example.com" },
      { login: "acme", type: "Organization", name: "Acme Corp", members: ["octo-dev", "mona"] },
      { login: "outsider", name: "Out Sider" },
    ],
    repos: [
      {
        fullName: "acme/platform-api",
        description: "Public API of the Acme platform",
        private: true,
        language: "TypeScript",
        topics: ["api", "platform"],
        branches: ["feature/rate-limit", "fix/flaky-ci", "feature/audit-log"],
        createdAt: "2023-06-01T10:00:00Z",
      },
      {
        fullName: "acme/infra",
        description: "Terraform for the Acme clusters",
        language: "HCL",
        topics: ["terraform", "eks"],
        branches: ["chore/eks-1-30"],
        createdAt: "2023-01-10T10:00:00Z",
      },
      {
        fullName: "octo-dev/dotfiles",
        description: "My dotfiles",
        language: "Shell",
        createdAt: "2022-05-05T10:00:00Z",
      },
      {
        fullName: "outsider/secret-plans",
        description: "Not yours",
        private: true,
        createdAt: "2024-01-01T00:00:00Z",
      },
    ],
    issues: [
      {
        repo: "acme/platform-api",
        title: "Rate limit the public API",
        body: "Clients can currently send unlimited requests.",
        user: "mona",
        labels: ["enhancement"],
        createdAt: "2025-03-01T09:00:00Z",
      },
      {
        repo: "acme/platform-api",
        title: "Add rate limiting middleware",
        body: "Closes #1. Token bucket per API key.",
        user: "mona",
        labels: ["enhancement"],
        createdAt: "2025-03-03T12:00:00Z",
        pull: { head: "feature/rate-limit" },
      },
      {
        repo: "acme/platform-api",
        title: "500 on empty payload",
        body: "POST /v1/orders with `{}` returns 500.",
        state: "closed",
        user: "octo-dev",
        labels: ["bug"],
        createdAt: "2025-02-10T08:00:00Z",
        closedAt: "2025-02-12T08:00:00Z",
      },
      {
        repo: "acme/platform-api",
        title: "Fix flaky CI integration job",
        body: "Wait for the database before running tests.",
        state: "closed",
        user: "octo-dev",
        createdAt: "2025-02-14T08:00:00Z",
        closedAt: "2025-02-15T10:00:00Z",
        pull: { head: "fix/flaky-ci", merged: true },
      },
      {
        repo: "acme/platform-api",
        title: "Audit log entries lack the actor",
        body: "Entries written by the worker have no actor id.",
        user: "mona",
        labels: ["bug"],
        assignees: ["octo-dev"],
        createdAt: "2025-03-05T15:00:00Z",
      },
      {
        repo: "acme/infra",
        title: "Upgrade EKS to 1.30",
        body: "Bumps the cluster module and node groups.",
        user: "octo-dev",
        createdAt: "2025-03-06T10:00:00Z",
        pull: { head: "chore/eks-1-30", draft: true },
      },
      {
        repo: "acme/infra",
        title: "Tag all EBS volumes with cost-center",
        user: "mona",
        labels: ["chore"],
        createdAt: "2025-03-02T10:00:00Z",
      },
    ],
    runs: [
      {
        repo: "acme/platform-api",
        branch: "main",
        event: "push",
        conclusion: "success",
        createdAt: "2025-03-01T10:00:00Z",
      },
      {
        repo: "acme/platform-api",
        branch: "fix/flaky-ci",
        event: "pull_request",
        conclusion: "failure",
        createdAt: "2025-02-14T09:00:00Z",
      },
      {
        repo: "acme/platform-api",
        branch: "fix/flaky-ci",
        event: "pull_request",
        conclusion: "success",
        createdAt: "2025-02-15T09:00:00Z",
      },
      {
        repo: "acme/platform-api",
        branch: "feature/rate-limit",
        event: "pull_request",
        conclusion: "failure",
        actor: "mona",
        createdAt: "2025-03-03T12:05:00Z",
      },
      {
        repo: "acme/platform-api",
        branch: "main",
        event: "push",
        status: "in_progress",
        conclusion: null,
        createdAt: "2025-03-07T08:00:00Z",
      },
      {
        repo: "acme/infra",
        workflow: "Terraform plan",
        branch: "chore/eks-1-30",
        event: "pull_request",
        conclusion: "success",
        createdAt: "2025-03-06T10:10:00Z",
      },
    ],
  };
}

/** Deterministic 40-hex SHA so the same seed gives the same commits. */
export function sha(...parts: string[]): string {
  return createHash("sha1").update(parts.join("\0")).digest("hex");
}

export function buildState(seed: GithubSeed): FakeGithubState {
  const state: FakeGithubState = {
    accounts: [],
    repos: [],
    issues: [],
    runs: [],
    requests: [],
    currentLogin: seed.viewer,
    nextId: 1000,
  };
  for (const a of seed.accounts) state.accounts.push(seedAccount(state, a));
  if (!state.accounts.some((a) => a.login === seed.viewer)) {
    throw new Error(`Seed viewer "${seed.viewer}" is not among the seed accounts; add it to accounts.`);
  }
  for (const r of seed.repos) state.repos.push(seedRepo(state, r));
  for (const i of seed.issues) addSeedIssue(state, i);
  for (const r of seed.runs) addSeedRun(state, r);
  return state;
}

function seedAccount(state: FakeGithubState, a: AccountSeed): AccountRecord {
  return {
    login: a.login,
    id: state.nextId++,
    type: a.type ?? "User",
    name: a.name ?? a.login,
    email: a.email ?? null,
    members: a.members ?? [],
    createdAt: new Date("2020-01-01T00:00:00Z"),
  };
}

function seedRepo(state: FakeGithubState, r: RepoSeed): RepoRecord {
  const [owner, name] = r.fullName.split("/");
  if (!owner || !name || !state.accounts.some((a) => a.login === owner)) {
    throw new Error(`Seed repo "${r.fullName}" must be owner/name with a seeded owner.`);
  }
  const defaultBranch = r.defaultBranch ?? "main";
  const created = new Date(r.createdAt ?? Date.now());
  return {
    id: state.nextId++,
    owner,
    name,
    description: r.description ?? null,
    private: r.private ?? false,
    fork: false,
    archived: false,
    language: r.language ?? null,
    topics: r.topics ?? [],
    defaultBranch,
    branches: Object.fromEntries([defaultBranch, ...(r.branches ?? [])].map((b) => [b, sha(r.fullName, b)])),
    stars: 0,
    createdAt: created,
    updatedAt: created,
    pushedAt: created,
    files: { ...r.files },
    teams: r.teams ?? [],
    ...(r.collaborators ? { collaborators: r.collaborators } : {}),
  };
}

export function addSeedIssue(state: FakeGithubState, i: IssueSeed): IssueRecord {
  const repo = state.repos.find((r) => `${r.owner}/${r.name}` === i.repo);
  if (!repo) throw new Error(`Seed issue "${i.title}" names repo ${i.repo}, which the seed lacks.`);
  const created = new Date(i.createdAt ?? Date.now());
  const closed = i.state === "closed" || i.pull?.merged ? new Date(i.closedAt ?? created) : null;
  const issue: IssueRecord = {
    id: state.nextId++,
    repo: i.repo,
    number: nextNumber(state, i.repo),
    title: i.title,
    body: i.body ?? null,
    state: closed ? "closed" : "open",
    user: i.user ?? state.currentLogin,
    labels: i.labels ?? [],
    assignees: i.assignees ?? [],
    comments: 0,
    createdAt: created,
    updatedAt: closed ?? created,
    closedAt: closed,
    pull: i.pull
      ? {
          head: i.pull.head,
          base: i.pull.base ?? repo.defaultBranch,
          headSha: repo.branches[i.pull.head] ?? sha(i.repo, i.pull.head),
          draft: i.pull.draft ?? false,
          mergedAt: i.pull.merged ? closed : null,
          mergedBy: i.pull.merged ? state.currentLogin : null,
          commits: 3,
          additions: 120,
          deletions: 14,
          changedFiles: 5,
        }
      : null,
  };
  state.issues.push(issue);
  return issue;
}

export function addSeedRun(state: FakeGithubState, r: RunSeed): WorkflowRunRecord {
  const repo = state.repos.find((x) => `${x.owner}/${x.name}` === r.repo);
  if (!repo) throw new Error(`Seed run names repo ${r.repo}, which the seed lacks.`);
  const workflow = r.workflow ?? "CI";
  const branch = r.branch ?? repo.defaultBranch;
  const created = new Date(r.createdAt ?? Date.now());
  const status = r.status ?? "completed";
  const run: WorkflowRunRecord = {
    id: 9_000_000 + state.nextId++,
    repo: r.repo,
    workflowId: 500 + [...workflow].reduce((n, c) => n + c.charCodeAt(0), 0),
    name: workflow,
    path: `.github/workflows/${workflow.toLowerCase().replaceAll(" ", "-")}.yml`,
    displayTitle: r.title ?? `${workflow} on ${branch}`,
    headBranch: branch,
    headSha: repo.branches[branch] ?? sha(r.repo, branch),
    event: r.event ?? "push",
    status,
    conclusion: status === "completed" ? (r.conclusion ?? "success") : null,
    runNumber: state.runs.filter((x) => x.repo === r.repo && x.name === workflow).length + 1,
    actor: r.actor ?? state.currentLogin,
    createdAt: created,
    updatedAt: new Date(created.getTime() + 4 * 60_000),
  };
  state.runs.push(run);
  return run;
}

export function nextNumber(state: FakeGithubState, repo: string): number {
  return Math.max(0, ...state.issues.filter((i) => i.repo === repo).map((i) => i.number)) + 1;
}
