/** The fields of GitHub's REST objects the agent reads (Octokit's types are far wider). */
interface Account {
  login: string;
}

interface Label {
  name?: string;
}

export interface GithubRepo {
  full_name: string;
  description?: string | null;
  private?: boolean;
  archived?: boolean;
  language?: string | null;
  default_branch?: string;
  topics?: string[];
  stargazers_count?: number;
  open_issues_count?: number;
  updated_at?: string | null;
  pushed_at?: string | null;
  html_url: string;
}

export interface GithubIssue {
  number: number;
  title: string;
  state: string;
  user?: Account | null;
  labels?: Array<string | Label>;
  assignees?: Account[] | null;
  comments?: number;
  created_at?: string;
  updated_at?: string;
  body?: string | null;
  html_url: string;
  pull_request?: unknown;
}

export interface GithubPull {
  number: number;
  title: string;
  state: string;
  draft?: boolean;
  merged_at?: string | null;
  user?: Account | null;
  head: { ref: string };
  base: { ref: string };
  labels?: Label[];
  assignees?: Account[] | null;
  created_at?: string;
  updated_at?: string;
  body?: string | null;
  html_url: string;
  merged?: boolean;
  mergeable?: boolean | null;
  mergeable_state?: string;
  commits?: number;
  additions?: number;
  deletions?: number;
  changed_files?: number;
}

export interface GithubRun {
  id: number;
  run_number: number;
  name?: string | null;
  display_title?: string;
  status?: string | null;
  conclusion?: string | null;
  head_branch?: string | null;
  event?: string;
  actor?: Account | null;
  created_at?: string;
  updated_at?: string;
  html_url: string;
}

const MAX_BODY = 1_500;

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

function day(timestamp: string | null | undefined): string {
  return timestamp?.slice(0, 10) ?? "?";
}

function labelNames(labels: Array<string | Label> | undefined): string[] {
  return (labels ?? [])
    .map((label) => (typeof label === "string" ? label : (label.name ?? "")))
    .filter(Boolean);
}

function logins(accounts: Account[] | null | undefined): string[] {
  return (accounts ?? []).map((account) => account.login);
}

export function formatRepoLine(repo: GithubRepo): string {
  const details = [
    repo.private ? "private" : "public",
    repo.archived ? "archived" : "",
    repo.language ?? "",
  ].filter(Boolean);
  const description = repo.description ? ` ${repo.description}` : "";
  return `${repo.full_name} (${details.join(", ")})${description} · updated ${day(repo.pushed_at ?? repo.updated_at)} · ${repo.html_url}`;
}

export function formatRepo(repo: GithubRepo): string {
  const lines = [
    `${repo.full_name}: ${repo.description ?? "(no description)"}`,
    `Visibility: ${repo.private ? "private" : "public"}${repo.archived ? " · archived" : ""} · Default branch: ${repo.default_branch ?? "?"} · Language: ${repo.language ?? "?"}`,
    `Stars: ${repo.stargazers_count ?? 0} · Open issues and pull requests: ${repo.open_issues_count ?? 0}`,
    `Last push: ${repo.pushed_at ?? "?"} · Updated: ${repo.updated_at ?? "?"}`,
  ];
  if (repo.topics?.length) lines.push(`Topics: ${repo.topics.join(", ")}`);
  lines.push(`URL: ${repo.html_url}`);
  return lines.join("\n");
}

export function formatIssueLine(issue: GithubIssue): string {
  const labels = labelNames(issue.labels);
  const assignees = logins(issue.assignees);
  const details = [
    issue.user?.login ?? "?",
    `updated ${day(issue.updated_at)}`,
    labels.length ? `labels: ${labels.join(", ")}` : "",
    assignees.length ? `assigned: ${assignees.join(", ")}` : "",
  ].filter(Boolean);
  return `#${issue.number} [${issue.state}] ${issue.title} (${details.join(", ")}) ${issue.html_url}`;
}

/** open, draft, merged or closed: what a person means by a pull request's state. */
function pullState(pull: GithubPull): string {
  if (pull.merged_at || pull.merged) return "merged";
  if (pull.state === "open" && pull.draft) return "draft";
  return pull.state;
}

export function formatPullLine(pull: GithubPull): string {
  const details = [
    pull.user?.login ?? "?",
    `${pull.head.ref} → ${pull.base.ref}`,
    `updated ${day(pull.updated_at)}`,
  ];
  return `#${pull.number} [${pullState(pull)}] ${pull.title} (${details.join(", ")}) ${pull.html_url}`;
}

export function formatPull(pull: GithubPull): string {
  const lines = [
    `#${pull.number}: ${pull.title}`,
    `State: ${pullState(pull)} · Author: ${pull.user?.login ?? "?"} · ${pull.head.ref} → ${pull.base.ref}`,
    `Created: ${pull.created_at ?? "?"} · Updated: ${pull.updated_at ?? "?"}${pull.merged_at ? ` · Merged: ${pull.merged_at}` : ""}`,
  ];
  if (pull.state === "open") {
    lines.push(
      `Mergeable: ${pull.mergeable ?? "unknown"}${pull.mergeable_state ? ` (${pull.mergeable_state})` : ""}`,
    );
  }
  if (pull.commits !== undefined) {
    lines.push(
      `Changes: ${pull.commits} commits, ${pull.changed_files ?? "?"} files, +${pull.additions ?? "?"} −${pull.deletions ?? "?"}`,
    );
  }
  const labels = labelNames(pull.labels);
  const assignees = logins(pull.assignees);
  if (labels.length) lines.push(`Labels: ${labels.join(", ")}`);
  if (assignees.length) lines.push(`Assignees: ${assignees.join(", ")}`);
  lines.push(`URL: ${pull.html_url}`);
  if (pull.body?.trim()) lines.push("", "Description:", clip(pull.body, MAX_BODY));
  return lines.join("\n");
}

export function formatRunLine(run: GithubRun): string {
  const outcome = run.conclusion ?? run.status ?? "?";
  const details = [run.event, run.actor?.login ? `by ${run.actor.login}` : "", day(run.created_at)].filter(
    Boolean,
  );
  const title = run.display_title && run.display_title !== run.name ? `: ${run.display_title}` : "";
  return `${run.name ?? "workflow"} #${run.run_number} [${outcome}] on ${run.head_branch ?? "?"}${title} (${details.join(", ")}, run id ${run.id}) ${run.html_url}`;
}
