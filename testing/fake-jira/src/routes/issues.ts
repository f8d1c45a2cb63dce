import { isAdfDocument } from "../adf.js";
import { isRecord, JiraHttpError } from "../http.js";
import { parseFieldList, renderIssue } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";
import { nextNumber } from "../seed.js";
import { type FakeJiraState, findIssue, findProject, type IssueRecord } from "../state.js";
import { issueTypes, priorities, statuses } from "../workflow.js";

export function requireIssue(state: FakeJiraState, keyOrId: string): IssueRecord {
  const issue = findIssue(state, keyOrId);
  if (!issue)
    throw JiraHttpError.messages(404, "Issue does not exist or you do not have permission to see it.");
  return issue;
}

function getIssue(ctx: RouteContext): RouteResult {
  const issue = requireIssue(ctx.state, ctx.params.issueIdOrKey ?? "");
  const fields = parseFieldList(ctx.query.getAll("fields").join(",") || undefined);
  return { status: 200, body: renderIssue(ctx.baseUrl, ctx.state, issue, fields, "*all") };
}

/** Lookup by `{id}` or `{key}`/`{name}`, the two ways Jira accepts references to projects, types and priorities. */
function ref(value: unknown, ...names: string[]): string | undefined {
  if (!isRecord(value)) return undefined;
  for (const name of ["id", ...names]) if (typeof value[name] === "string") return value[name];
  return undefined;
}

function createIssue(ctx: RouteContext): RouteResult {
  const { state } = ctx;
  const fields = isRecord(ctx.body) && isRecord(ctx.body.fields) ? ctx.body.fields : undefined;
  if (!fields) throw JiraHttpError.messages(400, "Request body must be JSON with a 'fields' object.");
  const errors: Record<string, string> = {};

  const projectRef = ref(fields.project, "key");
  const project = projectRef === undefined ? undefined : findProject(state, projectRef);
  if (!project) errors.project = "Specify a valid project ID or key";

  const typeRef = ref(fields.issuetype, "name");
  const issueType = issueTypes.find(
    (t) => t.id === typeRef || t.name.toLowerCase() === typeRef?.toLowerCase(),
  );
  if (typeRef === undefined) errors.issuetype = "Specify an issue type";
  else if (!issueType) errors.issuetype = "The issue type selected is invalid.";

  const summary = typeof fields.summary === "string" ? fields.summary.trim() : "";
  if (summary === "") errors.summary = "You must specify a summary of the issue.";
  else if (summary.length > 255) errors.summary = "Summary must be less than 255 characters.";

  const description = fields.description ?? null;
  if (description !== null && !isAdfDocument(description)) {
    errors.description = "Operation value must be an Atlassian Document (see the Atlassian Document Format)";
  }

  const priorityRef = fields.priority === undefined ? "Medium" : ref(fields.priority, "name");
  const priority = priorities.find(
    (p) => p.id === priorityRef || p.name.toLowerCase() === priorityRef?.toLowerCase(),
  );
  if (!priority) errors.priority = "Specify a valid priority.";

  const assigneeId =
    fields.assignee === undefined || fields.assignee === null ? null : ref(fields.assignee, "accountId");
  if (fields.assignee && !state.users.some((u) => u.accountId === assigneeId)) {
    errors.assignee = `User '${assigneeId ?? ""}' cannot be assigned issues.`;
  }

  const labels = fields.labels ?? [];
  if (!Array.isArray(labels) || labels.some((l) => typeof l !== "string" || /\s/.test(l))) {
    errors.labels = "Labels must be a list of strings without spaces.";
  }

  if (Object.keys(errors).length > 0 || !project || !issueType || !priority) {
    throw JiraHttpError.fields(400, errors);
  }
  const now = new Date();
  const issue: IssueRecord = {
    id: String(state.nextIssueId++),
    key: `${project.key}-${nextNumber(state, project.key)}`,
    projectKey: project.key,
    summary,
    description: isAdfDocument(description) ? description : null,
    status: statuses[0]?.name ?? "To Do",
    issueType: issueType.name,
    priority: priority.name,
    assigneeId: assigneeId ?? null,
    reporterId: state.currentAccountId,
    labels: labels as string[],
    created: now,
    updated: now,
    resolutionDate: null,
  };
  state.issues.push(issue);
  return {
    status: 201,
    body: { id: issue.id, key: issue.key, self: `${ctx.baseUrl}/rest/api/3/issue/${issue.id}` },
  };
}

function assignIssue(ctx: RouteContext): RouteResult {
  const issue = requireIssue(ctx.state, ctx.params.issueIdOrKey ?? "");
  const raw = isRecord(ctx.body) ? ctx.body.accountId : undefined;
  const user = ctx.state.users.find((u) => u.accountId === raw);
  if (raw !== null && !user) {
    throw JiraHttpError.fields(400, { assignee: `User '${String(raw)}' cannot be assigned issues.` });
  }
  issue.assigneeId = user?.accountId ?? null;
  issue.updated = new Date();
  return { status: 204 };
}

export function issueRoutes(router: Router): void {
  router
    .on("POST", "/rest/api/3/issue", createIssue)
    .on("GET", "/rest/api/3/issue/{issueIdOrKey}", getIssue)
    .on("PUT", "/rest/api/3/issue/{issueIdOrKey}/assignee", assignIssue);
}
