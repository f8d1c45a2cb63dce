import type { AccountRecord, FakeGithubState, IssueRecord, RepoRecord, WorkflowRunRecord } from "./state.js";
import { canAccess, findAccount, fullName } from "./state.js";

/** Base URLs of the fake: `api` for `url` fields, `web` for `html_url`. */
export interface Urls {
  api: string;
  web: string;
}

function nodeId(type: string, id: number): string {
  return Buffer.from(`0${type.length}:${type}${id}`).toString("base64");
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString().replace(/\.\d{3}Z$/, "Z") : null;
}

export function renderAccount(
  urls: Urls,
  account: AccountRecord | undefined,
  login = "ghost",
): Record<string, unknown> {
  const a = account ?? { login, id: 10137, type: "User" as const };
  const url = `${urls.api}/users/${a.login}`;
  return {
    login: a.login,
    id: a.id,
    node_id: nodeId(a.type, a.id),
    avatar_url: `${urls.web}/avatars/u/${a.id}`,
    gravatar_id: "",
    url,
    html_url: `${urls.web}/${a.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: a.type,
    user_view_type: "public",
    site_admin: false,
  };
}

export function renderUser(urls: Urls, state: FakeGithubState, login: string): Record<string, unknown> {
  return renderAccount(urls, findAccount(state, login), login);
}

/** `GET /user`: the simple user plus the profile fields only the authenticated user sees. */
export function renderViewer(urls: Urls, state: FakeGithubState): Record<string, unknown> {
  const me = findAccount(state, state.currentLogin);
  const owned = state.repos.filter((r) => r.owner === state.currentLogin);
  return {
    ...renderAccount(urls, me),
    name: me?.name ?? null,
    company: null,
    blog: "",
    location: null,
    email: me?.email ?? null,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: owned.filter((r) => !r.private).length,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: iso(me?.createdAt ?? null),
    updated_at: iso(me?.createdAt ?? null),
    private_gists: 0,
    total_private_repos: owned.filter((r) => r.private).length,
    owned_private_repos: owned.filter((r) => r.private).length,
    two_factor_authentication: true,
  };
}

export function renderRepo(urls: Urls, state: FakeGithubState, repo: RepoRecord): Record<string, unknown> {
  const name = fullName(repo);
  const url = `${urls.api}/repos/${name}`;
  const open = state.issues.filter((i) => i.repo === name && i.state === "open").length;
  const writable = canAccess(state, repo);
  return {
    id: repo.id,
    node_id: nodeId("Repository", repo.id),
    name: repo.name,
    full_name: name,
    private: repo.private,
    owner: renderUser(urls, state, repo.owner),
    html_url: `${urls.web}/${name}`,
    description: repo.description,
    fork: repo.fork,
    url,
    issues_url: `${url}/issues{/number}`,
    pulls_url: `${url}/pulls{/number}`,
    branches_url: `${url}/branches{/branch}`,
    commits_url: `${url}/commits{/sha}`,
    git_url: `${urls.web.replace(/^http/, "git")}/${name}.git`,
    ssh_url: `git@${new URL(urls.web).host}:${name}.git`,
    clone_url: `${urls.web}/${name}.git`,
    homepage: null,
    size: 1024,
    stargazers_count: repo.stars,
    watchers_count: repo.stars,
    language: repo.language,
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: false,
    has_pages: false,
    has_discussions: false,
    forks_count: 0,
    archived: repo.archived,
    disabled: false,
    open_issues_count: open,
    license: null,
    allow_forking: true,
    is_template: false,
    topics: repo.topics,
    visibility: repo.private ? "private" : "public",
    forks: 0,
    open_issues: open,
    watchers: repo.stars,
    default_branch: repo.defaultBranch,
    created_at: iso(repo.createdAt),
    updated_at: iso(repo.updatedAt),
    pushed_at: iso(repo.pushedAt),
    permissions: { admin: writable, maintain: writable, push: writable, triage: writable, pull: true },
  };
}

function renderLabel(urls: Urls, repo: string, name: string): Record<string, unknown> {
  const id = [...name].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1_000_000_007, 7);
  const colors: Record<string, string> = { bug: "d73a4a", enhancement: "a2eeef", documentation: "0075ca" };
  return {
    id,
    node_id: nodeId("Label", id),
    url: `${urls.api}/repos/${repo}/labels/${encodeURIComponent(name)}`,
    name,
    color: colors[name] ?? "ededed",
    default: name in colors,
    description: null,
  };
}

function authorAssociation(state: FakeGithubState, repoName: string, login: string): string {
  const repo = state.repos.find((r) => fullName(r) === repoName);
  if (repo?.owner === login) return "OWNER";
  return findAccount(state, repo?.owner ?? "")?.members.includes(login) ? "MEMBER" : "NONE";
}

/** An issue as the issues API lists it; pull requests carry a `pull_request` key there. */
export function renderIssue(urls: Urls, state: FakeGithubState, issue: IssueRecord): Record<string, unknown> {
  const url = `${urls.api}/repos/${issue.repo}/issues/${issue.number}`;
  const assignees = issue.assignees.map((login) => renderUser(urls, state, login));
  return {
    id: issue.id,
    node_id: nodeId(issue.pull ? "PullRequest" : "Issue", issue.id),
    url,
    repository_url: `${urls.api}/repos/${issue.repo}`,
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: `${urls.web}/${issue.repo}/${issue.pull ? "pull" : "issues"}/${issue.number}`,
    number: issue.number,
    state: issue.state,
    state_reason: issue.state === "closed" && !issue.pull ? "completed" : null,
    title: issue.title,
    body: issue.body,
    user: renderUser(urls, state, issue.user),
    labels: issue.labels.map((l) => renderLabel(urls, issue.repo, l)),
    assignee: assignees[0] ?? null,
    assignees,
    milestone: null,
    locked: false,
    active_lock_reason: null,
    comments: issue.comments,
    ...(issue.pull
      ? {
          pull_request: {
            url: `${urls.api}/repos/${issue.repo}/pulls/${issue.number}`,
            html_url: `${urls.web}/${issue.repo}/pull/${issue.number}`,
            diff_url: `${urls.web}/${issue.repo}/pull/${issue.number}.diff`,
            patch_url: `${urls.web}/${issue.repo}/pull/${issue.number}.patch`,
            merged_at: iso(issue.pull.mergedAt),
          },
          draft: issue.pull.draft,
        }
      : {}),
    closed_at: iso(issue.closedAt),
    created_at: iso(issue.createdAt),
    updated_at: iso(issue.updatedAt),
    closed_by: null,
    author_association: authorAssociation(state, issue.repo, issue.user),
    reactions: {
      url: `${url}/reactions`,
      total_count: 0,
      "+1": 0,
      "-1": 0,
      laugh: 0,
      hooray: 0,
      confused: 0,
      heart: 0,
      rocket: 0,
      eyes: 0,
    },
  };
}

/** A pull request; `detailed` adds the fields only `GET /pulls/{n}` returns (merged, mergeable, counts). */
export function renderPull(
  urls: Urls,
  state: FakeGithubState,
  issue: IssueRecord,
  detailed: boolean,
): Record<string, unknown> {
  const pull = issue.pull;
  if (!pull) throw new Error(`#${issue.number} in ${issue.repo} is an issue, not a pull request`);
  const repo = state.repos.find((r) => fullName(r) === issue.repo);
  const url = `${urls.api}/repos/${issue.repo}/pulls/${issue.number}`;
  const issueUrl = `${urls.api}/repos/${issue.repo}/issues/${issue.number}`;
  const html = `${urls.web}/${issue.repo}/pull/${issue.number}`;
  const repoJson = repo ? renderRepo(urls, state, repo) : null;
  const ref = (branch: string, sha: string) => ({
    label: `${repo?.owner ?? ""}:${branch}`,
    ref: branch,
    sha,
    user: renderUser(urls, state, repo?.owner ?? ""),
    repo: repoJson,
  });
  const base = repo?.branches[pull.base] ?? "0".repeat(40);
  const assignees = issue.assignees.map((login) => renderUser(urls, state, login));
  const summary: Record<string, unknown> = {
    url,
    id: issue.id,
    node_id: nodeId("PullRequest", issue.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${urls.api}/repos/${issue.repo}/pulls/comments{/number}`,
    comments_url: `${issueUrl}/comments`,
    statuses_url: `${urls.api}/repos/${issue.repo}/statuses/${pull.headSha}`,
    number: issue.number,
    state: issue.state,
    locked: false,
    title: issue.title,
    user: renderUser(urls, state, issue.user),
    body: issue.body,
    labels: issue.labels.map((l) => renderLabel(urls, issue.repo, l)),
    milestone: null,
    active_lock_reason: null,
    created_at: iso(issue.createdAt),
    updated_at: iso(issue.updatedAt),
    closed_at: iso(issue.closedAt),
    merged_at: iso(pull.mergedAt),
    merge_commit_sha: pull.mergedAt ? pull.headSha : null,
    assignee: assignees[0] ?? null,
    assignees,
    requested_reviewers: [],
    requested_teams: [],
    head: ref(pull.head, pull.headSha),
    base: ref(pull.base, base),
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: issueUrl },
      comments: { href: `${issueUrl}/comments` },
      review_comments: { href: `${url}/comments` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${urls.api}/repos/${issue.repo}/statuses/${pull.headSha}` },
    },
    author_association: authorAssociation(state, issue.repo, issue.user),
    auto_merge: null,
    draft: pull.draft,
  };
  if (!detailed) return summary;
  const open = issue.state === "open";
  return {
    ...summary,
    merged: pull.mergedAt !== null,
    mergeable: open ? !pull.draft : null,
    rebaseable: open ? true : null,
    mergeable_state: open ? (pull.draft ? "draft" : "clean") : "unknown",
    merged_by: pull.mergedBy ? renderUser(urls, state, pull.mergedBy) : null,
    comments: issue.comments,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: pull.commits,
    additions: pull.additions,
    deletions: pull.deletions,
    changed_files: pull.changedFiles,
  };
}

export function renderRun(
  urls: Urls,
  state: FakeGithubState,
  run: WorkflowRunRecord,
): Record<string, unknown> {
  const repo = state.repos.find((r) => fullName(r) === run.repo);
  const url = `${urls.api}/repos/${run.repo}/actions/runs/${run.id}`;
  const minimalRepo = repo && {
    id: repo.id,
    node_id: nodeId("Repository", repo.id),
    name: repo.name,
    full_name: run.repo,
    private: repo.private,
    owner: renderUser(urls, state, repo.owner),
    html_url: `${urls.web}/${run.repo}`,
    description: repo.description,
    fork: repo.fork,
    url: `${urls.api}/repos/${run.repo}`,
  };
  const actor = renderUser(urls, state, run.actor);
  const author = {
    name: findAccount(state, run.actor)?.name ?? run.actor,
    email: `${run.actor}@users.noreply.example`,
  };
  return {
    id: run.id,
    name: run.name,
    node_id: nodeId("WorkflowRun", run.id),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path,
    display_title: run.displayTitle,
    run_number: run.runNumber,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflowId,
    check_suite_id: run.id + 1,
    check_suite_node_id: nodeId("CheckSuite", run.id + 1),
    url,
    html_url: `${urls.web}/${run.repo}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: iso(run.createdAt),
    updated_at: iso(run.updatedAt),
    actor,
    run_attempt: 1,
    referenced_workflows: [],
    run_started_at: iso(run.createdAt),
    triggering_actor: actor,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${urls.api}/repos/${run.repo}/check-suites/${run.id + 1}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${urls.api}/repos/${run.repo}/actions/workflows/${run.workflowId}`,
    head_commit: {
      id: run.headSha,
      tree_id: run.headSha.split("").reverse().join(""),
      message: run.displayTitle,
      timestamp: iso(run.createdAt),
      author,
      committer: author,
    },
    repository: minimalRepo,
    head_repository: minimalRepo,
  };
}
