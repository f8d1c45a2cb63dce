import type { AdfDocument } from "./adf.js";

export interface JiraUser {
  accountId: string;
  displayName: string;
  emailAddress: string;
  timeZone: string;
  active: boolean;
}

export interface JiraProject {
  id: string;
  key: string;
  name: string;
  description: string;
  leadAccountId: string;
}

export interface IssueRecord {
  id: string;
  key: string;
  projectKey: string;
  summary: string;
  description: AdfDocument | null;
  status: string;
  issueType: string;
  priority: string;
  assigneeId: string | null;
  reporterId: string;
  labels: string[];
  created: Date;
  updated: Date;
  resolutionDate: Date | null;
}

export interface CommentRecord {
  id: string;
  issueKey: string;
  authorId: string;
  body: AdfDocument;
  created: Date;
  updated: Date;
}

export interface TransitionRecord {
  issueKey: string;
  transitionId: string;
  from: string;
  to: string;
  byAccountId: string;
  at: Date;
}

export interface RequestRecord {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  /** `basic` with the email it named, `none` when no Authorization header came, `other` for any other scheme. */
  auth: { scheme: "basic"; email: string } | { scheme: "none" } | { scheme: "other" };
  body: unknown;
  status: number;
}

/** Everything the fake knows; tests read and change it directly. */
export interface FakeJiraState {
  users: JiraUser[];
  projects: JiraProject[];
  issues: IssueRecord[];
  comments: CommentRecord[];
  transitions: TransitionRecord[];
  requests: RequestRecord[];
  /** The account the configured email belongs to: reporter of created issues, author of comments. */
  currentAccountId: string;
  nextIssueId: number;
  nextCommentId: number;
}

export function findUser(state: FakeJiraState, accountId: string | null): JiraUser | undefined {
  return accountId === null ? undefined : state.users.find((u) => u.accountId === accountId);
}

export function findProject(state: FakeJiraState, keyOrId: string): JiraProject | undefined {
  const wanted = keyOrId.toUpperCase();
  return state.projects.find((p) => p.key === wanted || p.id === keyOrId);
}

/** Jira resolves issue paths by key (case-insensitive) or numeric id. */
export function findIssue(state: FakeJiraState, keyOrId: string): IssueRecord | undefined {
  const wanted = keyOrId.toUpperCase();
  return state.issues.find((i) => i.key === wanted || i.id === keyOrId);
}

/** Jira's timestamp format: millisecond ISO with a `+0000` offset. */
export function jiraTime(date: Date): string {
  return date.toISOString().replace("Z", "+0000");
}
