import type { CommentRecord, FakeJiraState, IssueRecord, JiraProject, JiraUser } from "./state.js";
import { findUser, jiraTime } from "./state.js";
import { findStatus, issueTypes, priorities, statusCategories } from "./workflow.js";

/** Turns records into the JSON Jira Cloud returns; `base` is the server URL for `self` links. */
export function renderUser(base: string, user: JiraUser | undefined): Record<string, unknown> | null {
  if (!user) return null;
  const avatar = `https://avatar-management.example/${encodeURIComponent(user.accountId)}`;
  return {
    self: `${base}/rest/api/3/user?accountId=${encodeURIComponent(user.accountId)}`,
    accountId: user.accountId,
    accountType: "atlassian",
    emailAddress: user.emailAddress,
    avatarUrls: {
      "48x48": `${avatar}/48`,
      "24x24": `${avatar}/24`,
      "16x16": `${avatar}/16`,
      "32x32": `${avatar}/32`,
    },
    displayName: user.displayName,
    active: user.active,
    timeZone: user.timeZone,
    locale: "en_US",
  };
}

export function renderProject(
  base: string,
  state: FakeJiraState,
  project: JiraProject,
): Record<string, unknown> {
  return {
    expand: "description,lead,issueTypes,url,projectKeys,permissions,insight",
    self: `${base}/rest/api/3/project/${project.id}`,
    id: project.id,
    key: project.key,
    name: project.name,
    description: project.description,
    lead: renderUser(base, findUser(state, project.leadAccountId)),
    avatarUrls: { "48x48": `${base}/rest/api/3/universal_avatar/view/type/project/avatar/10400` },
    projectTypeKey: "software",
    simplified: true,
    style: "next-gen",
    isPrivate: false,
    properties: {},
  };
}

export function renderStatus(base: string, name: string): Record<string, unknown> {
  const status = findStatus(name) ?? { id: "0", name, category: "new" as const };
  const category = statusCategories[status.category];
  return {
    self: `${base}/rest/api/3/status/${status.id}`,
    description: "",
    iconUrl: `${base}/images/icons/statuses/generic.png`,
    name: status.name,
    id: status.id,
    statusCategory: {
      self: `${base}/rest/api/3/statuscategory/${category.id}`,
      id: category.id,
      key: status.category,
      colorName: category.colorName,
      name: category.name,
    },
  };
}

export function renderComment(
  base: string,
  state: FakeJiraState,
  comment: CommentRecord,
): Record<string, unknown> {
  const issue = state.issues.find((i) => i.key === comment.issueKey);
  const author = renderUser(base, findUser(state, comment.authorId));
  return {
    self: `${base}/rest/api/3/issue/${issue?.id ?? comment.issueKey}/comment/${comment.id}`,
    id: comment.id,
    author,
    body: comment.body,
    updateAuthor: author,
    created: jiraTime(comment.created),
    updated: jiraTime(comment.updated),
    jsdPublic: true,
  };
}

/** All fields of an issue; `comment` only appears when asked for (it is not a navigable field). */
function allFields(base: string, state: FakeJiraState, issue: IssueRecord): Record<string, unknown> {
  const project = state.projects.find((p) => p.key === issue.projectKey);
  const type = issueTypes.find((t) => t.name === issue.issueType);
  const priority = priorities.find((p) => p.name === issue.priority);
  const comments = state.comments.filter((c) => c.issueKey === issue.key);
  return {
    summary: issue.summary,
    description: issue.description,
    status: renderStatus(base, issue.status),
    issuetype: type && {
      self: `${base}/rest/api/3/issuetype/${type.id}`,
      id: type.id,
      description: type.description,
      iconUrl: `${base}/images/icons/issuetypes/${type.name.toLowerCase()}.svg`,
      name: type.name,
      subtask: type.subtask,
      hierarchyLevel: type.name === "Epic" ? 1 : 0,
    },
    priority: priority && {
      self: `${base}/rest/api/3/priority/${priority.id}`,
      iconUrl: `${base}/images/icons/priorities/${priority.name.toLowerCase()}.svg`,
      name: priority.name,
      id: priority.id,
    },
    project: project && {
      self: `${base}/rest/api/3/project/${project.id}`,
      id: project.id,
      key: project.key,
      name: project.name,
      projectTypeKey: "software",
      simplified: true,
    },
    assignee: renderUser(base, findUser(state, issue.assigneeId)),
    reporter: renderUser(base, findUser(state, issue.reporterId)),
    creator: renderUser(base, findUser(state, issue.reporterId)),
    labels: issue.labels,
    created: jiraTime(issue.created),
    updated: jiraTime(issue.updated),
    resolutiondate: issue.resolutionDate ? jiraTime(issue.resolutionDate) : null,
    resolution: issue.resolutionDate
      ? {
          self: `${base}/rest/api/3/resolution/10000`,
          id: "10000",
          name: "Done",
          description: "Work is done.",
        }
      : null,
    duedate: null,
    comment: {
      comments: comments.map((c) => renderComment(base, state, c)),
      self: `${base}/rest/api/3/issue/${issue.id}/comment`,
      maxResults: comments.length,
      total: comments.length,
      startAt: 0,
    },
  };
}

/**
 * Applies Jira's `fields` parameter: `*all`, `*navigable`, names, and `-name` exclusions.
 * `defaults` is what the endpoint returns when the caller names no fields.
 */
export function renderIssue(
  base: string,
  state: FakeJiraState,
  issue: IssueRecord,
  requested: string[] | undefined,
  defaults: "*all" | "*navigable",
): Record<string, unknown> {
  const every = allFields(base, state, issue);
  const wanted = requested && requested.length > 0 ? requested : [defaults];
  const include = new Set<string>();
  for (const name of wanted) {
    if (name === "*all") for (const key of Object.keys(every)) include.add(key);
    else if (name === "*navigable")
      for (const key of Object.keys(every)) key !== "comment" && include.add(key);
    else if (!name.startsWith("-")) include.add(name);
  }
  for (const name of wanted) if (name.startsWith("-")) include.delete(name.slice(1));
  const fields: Record<string, unknown> = {};
  for (const key of include) if (key in every) fields[key] = every[key];
  return {
    expand: "renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations",
    id: issue.id,
    self: `${base}/rest/api/3/issue/${issue.id}`,
    key: issue.key,
    fields,
  };
}

/** `fields` arrives as `a,b` in a query string or as an array in a POST body. */
export function parseFieldList(value: unknown): string[] | undefined {
  if (Array.isArray(value))
    return value
      .flatMap((v) => String(v).split(","))
      .map((s) => s.trim())
      .filter(Boolean);
  if (typeof value === "string")
    return value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  return undefined;
}
