import { adfToText } from "./adf.js";

/** The fields of a Jira issue the agent reads (jira.js types them loosely). */
export interface JiraIssue {
  key: string;
  fields: {
    summary?: string;
    status?: { name?: string };
    assignee?: { displayName?: string } | null;
    reporter?: { displayName?: string } | null;
    priority?: { name?: string } | null;
    issuetype?: { name?: string };
    labels?: string[];
    created?: string;
    updated?: string;
    description?: unknown;
    comment?: { comments?: Array<{ author?: { displayName?: string }; created?: string; body?: unknown }> };
  };
}

const MAX_DESCRIPTION = 1_500;
const MAX_COMMENT = 400;
const COMMENTS_SHOWN = 5;

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

/** One line per issue for search results: what a person scans for. */
export function formatIssueLine(issue: JiraIssue): string {
  const { fields } = issue;
  const who = fields.assignee?.displayName ?? "unassigned";
  const details = [fields.issuetype?.name, fields.priority?.name, who, fields.updated?.slice(0, 10)].filter(
    Boolean,
  );
  return `${issue.key} [${fields.status?.name ?? "?"}] ${fields.summary ?? ""} (${details.join(", ")})`;
}

/** An issue in full, with the description and latest comments clipped to what a model needs. */
export function formatIssue(issue: JiraIssue): string {
  const { fields } = issue;
  const lines = [
    `${issue.key}: ${fields.summary ?? ""}`,
    `Status: ${fields.status?.name ?? "?"} · Type: ${fields.issuetype?.name ?? "?"} · Priority: ${fields.priority?.name ?? "none"}`,
    `Assignee: ${fields.assignee?.displayName ?? "unassigned"} · Reporter: ${fields.reporter?.displayName ?? "?"}`,
    `Created: ${fields.created ?? "?"} · Updated: ${fields.updated ?? "?"}`,
  ];
  if (fields.labels?.length) lines.push(`Labels: ${fields.labels.join(", ")}`);
  const description = adfToText(fields.description);
  if (description.trim()) lines.push("", "Description:", clip(description, MAX_DESCRIPTION));
  const comments = fields.comment?.comments ?? [];
  if (comments.length > 0) {
    lines.push("", `Comments (${comments.length}, latest ${Math.min(COMMENTS_SHOWN, comments.length)}):`);
    for (const comment of comments.slice(-COMMENTS_SHOWN)) {
      const author = comment.author?.displayName ?? "someone";
      lines.push(
        `- ${author}, ${comment.created?.slice(0, 10) ?? ""}: ${clip(adfToText(comment.body), MAX_COMMENT)}`,
      );
    }
  }
  return lines.join("\n");
}
