import { adfToText } from "./adf.js";
import { JqlError, type JqlNode, type JqlValue, parseJql } from "./jql-parse.js";
import { type FakeJiraState, findUser, type IssueRecord } from "./state.js";
import { findStatus, priorities, statusCategories, statuses } from "./workflow.js";

export { JqlError } from "./jql-parse.js";

export interface CompiledJql {
  matches(issue: IssueRecord): boolean;
  compare(a: IssueRecord, b: IssueRecord): number;
  /** True when the query has no search clause (the enhanced search endpoint refuses those). */
  unbounded: boolean;
}

const textFields = new Set(["text", "summary", "description", "comment"]);
const dateFields = new Set([
  "created",
  "createddate",
  "updated",
  "updateddate",
  "resolved",
  "resolutiondate",
]);
const listFields = new Set([
  "project",
  "status",
  "statuscategory",
  "assignee",
  "reporter",
  "creator",
  "priority",
  "issuetype",
  "type",
  "labels",
  "key",
  "issuekey",
  "id",
]);

/** Compiles JQL against the state; unknown fields and values fail the way Jira reports them. */
export function compileJql(jql: string, state: FakeJiraState, now = new Date()): CompiledJql {
  const query = parseJql(jql);
  if (query.where) validate(query.where, state);
  const orderBy = query.orderBy.length > 0 ? query.orderBy : [{ field: "key", direction: "desc" as const }];
  for (const { field } of orderBy) {
    if (!listFields.has(field) && !dateFields.has(field) && field !== "summary" && field !== "rank") {
      throw new JqlError(`Not able to sort using field '${field}'.`);
    }
  }
  return {
    unbounded: query.where === undefined,
    matches: (issue) => (query.where ? evaluate(query.where, issue, state, now) : true),
    compare: (a, b) => {
      for (const { field, direction } of orderBy) {
        const [x, y] = [sortKey(field, a, state), sortKey(field, b, state)];
        const diff = x < y ? -1 : x > y ? 1 : 0;
        if (diff !== 0) return direction === "asc" ? diff : -diff;
      }
      return 0;
    },
  };
}

function validate(node: JqlNode, state: FakeJiraState): void {
  if (node.kind === "not") {
    validate(node.inner, state);
    return;
  }
  if (node.kind !== "clause") {
    validate(node.left, state);
    validate(node.right, state);
    return;
  }
  const { field, op, values } = node;
  if (!textFields.has(field) && !dateFields.has(field) && !listFields.has(field)) {
    throw new JqlError(`Field '${field}' does not exist or you do not have permission to view it.`);
  }
  if (textFields.has(field) && op !== "~" && op !== "!~" && op !== "is" && op !== "is not") {
    throw new JqlError(`The operator '${op}' is not supported by the '${field}' field.`);
  }
  if (listFields.has(field) && (op === "~" || op === "!~")) {
    throw new JqlError(`The operator '${op}' is not supported by the '${field}' field.`);
  }
  for (const value of values) {
    if (value.kind !== "text") continue;
    const known =
      field === "project"
        ? state.projects.some((p) => [p.key, p.name, p.id].some((x) => same(x, value.text)))
        : field === "status"
          ? findStatus(value.text) !== undefined
          : true;
    if (!known) throw new JqlError(`The value '${value.text}' does not exist for the field '${field}'.`);
  }
}

function evaluate(node: JqlNode, issue: IssueRecord, state: FakeJiraState, now: Date): boolean {
  switch (node.kind) {
    case "and":
      return evaluate(node.left, issue, state, now) && evaluate(node.right, issue, state, now);
    case "or":
      return evaluate(node.left, issue, state, now) || evaluate(node.right, issue, state, now);
    case "not":
      return !evaluate(node.inner, issue, state, now);
  }
  const { field, op, values } = node;
  if (textFields.has(field)) {
    const text = fieldText(field, issue, state);
    if (op === "is" || op === "is not") return (text.trim() === "") === (op === "is");
    const found = values.every((v) => v.kind === "text" && containsWords(text, v.text));
    return op === "~" ? found : !found;
  }
  if (dateFields.has(field)) {
    const actual = dateOf(field, issue);
    if (op === "is" || op === "is not") return (actual === null) === (op === "is");
    const wanted = values.map((v) => resolveDate(v, now));
    if (actual === null) return false;
    const t = actual.getTime();
    return wanted.some((w) => compareOp(op, t, w));
  }
  const actual = listValues(field, issue, state).map((x) => x.toLowerCase());
  if (op === "is" || op === "is not") return (actual.length === 0) === (op === "is");
  const wanted = values.flatMap((v) => resolveValue(v, state));
  const hit = wanted.some((w) => (w === null ? actual.length === 0 : actual.includes(w.toLowerCase())));
  if (op === "=" || op === "in") return hit;
  if (op === "!=" || op === "not in") return !hit && actual.length > 0;
  throw new JqlError(`The operator '${op}' is not supported by the '${field}' field.`);
}

function listValues(field: string, issue: IssueRecord, state: FakeJiraState): string[] {
  const person = (id: string | null) => {
    const user = findUser(state, id);
    return user ? [user.accountId, user.displayName, user.emailAddress] : [];
  };
  switch (field) {
    case "project": {
      const p = state.projects.find((x) => x.key === issue.projectKey);
      return p ? [p.key, p.name, p.id] : [issue.projectKey];
    }
    case "status":
      return [issue.status];
    case "statuscategory": {
      const key = findStatus(issue.status)?.category ?? "new";
      return [key, statusCategories[key].name, String(statusCategories[key].id)];
    }
    case "assignee":
      return person(issue.assigneeId);
    case "reporter":
    case "creator":
      return person(issue.reporterId);
    case "priority":
      return [issue.priority];
    case "issuetype":
    case "type":
      return [issue.issueType];
    case "labels":
      return issue.labels;
    default:
      return [issue.key, issue.id];
  }
}

function resolveValue(value: JqlValue, state: FakeJiraState): (string | null)[] {
  if (value.kind === "empty") return [null];
  if (value.kind === "text") return [value.text];
  if (value.name === "currentuser") return [state.currentAccountId];
  throw new JqlError(`Unable to find JQL function '${value.name}()'.`);
}

function fieldText(field: string, issue: IssueRecord, state: FakeJiraState): string {
  const comments = () =>
    state.comments
      .filter((c) => c.issueKey === issue.key)
      .map((c) => adfToText(c.body))
      .join("\n");
  if (field === "summary") return issue.summary;
  if (field === "description") return adfToText(issue.description);
  if (field === "comment") return comments();
  return [issue.summary, adfToText(issue.description), comments(), issue.labels.join(" ")].join("\n");
}

/** Jira's `~` is a word search: every word of the query must appear; `*` is a trailing wildcard. */
function containsWords(text: string, query: string): boolean {
  const haystack = text.toLowerCase();
  const words = query
    .toLowerCase()
    .replaceAll("*", "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return words.length > 0 && words.every((w) => haystack.includes(w));
}

function dateOf(field: string, issue: IssueRecord): Date | null {
  if (field.startsWith("created")) return issue.created;
  if (field.startsWith("updated")) return issue.updated;
  return issue.resolutionDate;
}

/** Dates as `2025-03-01`, `2025-03-01 10:00`, relative `-7d`/`-2w`/`-4h`/`-30m`, or `now()`. */
function resolveDate(value: JqlValue, now: Date): number {
  if (value.kind === "function" && value.name === "now") return now.getTime();
  if (value.kind !== "text")
    throw new JqlError("Dates must be a date such as '2025-03-01', a period such as '-7d', or now().");
  const relative = /^([+-]?)(\d+)([mhdw])$/.exec(value.text);
  if (relative) {
    const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[
      relative[3] as "m" | "h" | "d" | "w"
    ];
    const sign = relative[1] === "-" ? -1 : 1;
    return now.getTime() + sign * Number(relative[2]) * unit;
  }
  const parsed = Date.parse(value.text.replace(" ", "T") + (value.text.length <= 10 ? "T00:00:00Z" : "Z"));
  if (Number.isNaN(parsed)) throw new JqlError(`Date value '${value.text}' for field is invalid.`);
  return parsed;
}

function compareOp(op: string, actual: number, wanted: number): boolean {
  if (op === "=" || op === "in") return actual === wanted;
  if (op === "!=" || op === "not in") return actual !== wanted;
  if (op === ">") return actual > wanted;
  if (op === ">=") return actual >= wanted;
  if (op === "<") return actual < wanted;
  return actual <= wanted;
}

function sortKey(field: string, issue: IssueRecord, state: FakeJiraState): string | number {
  if (dateFields.has(field)) return dateOf(field, issue)?.getTime() ?? 0;
  if (field === "key" || field === "issuekey" || field === "id" || field === "rank") return Number(issue.id);
  if (field === "priority") return -Number(priorities.find((p) => p.name === issue.priority)?.id ?? 0);
  if (field === "status") return statuses.findIndex((s) => s.name === issue.status);
  if (field === "summary") return issue.summary.toLowerCase();
  const values = listValues(field, issue, state);
  return (values[1] ?? values[0] ?? "").toLowerCase();
}

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
