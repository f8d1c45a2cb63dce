import type { Operation } from "./operations.js";

/**
 * Query parameters by which APIs page a list: page numbers and sizes, offsets and limits, cursors
 * and tokens (GitHub's page/per_page, Stripe's starting_after, Slack's cursor, Jira's startAt/maxResults).
 */
const PAGING =
  /^(page|pages?_?(size|number|num|token|no)|per_?page|limit|offset|skip|top|cursor|next(_?(page|token|cursor))?|after|before|starting_?after|ending_?before|start_?at|max_?results|marker|continuation_?token|since_?id|max_?id)$/i;

/** The operation's own paging parameters, as the description names them ([] when it has none). */
export function pagingOf(operation: Operation): string[] {
  return operation.parameters
    .filter((parameter) => parameter.in === "query" && PAGING.test(parameter.name))
    .map(({ name }) => name);
}

/**
 * How a tool's description says to read on: an answer may be one page, and the model asks for the
 * next with the operation's own parameters (nothing is fetched on its behalf: it decides whether
 * more is needed). Empty when the operation has no paging parameter.
 */
export function pagingHint(operation: Operation): string {
  const names = pagingOf(operation);
  if (names.length === 0) return "";
  return ` Answers come a page at a time: to read on, call again with ${names.join(", ")} set for the next page (from what the answer says, e.g. its next cursor or link).`;
}
