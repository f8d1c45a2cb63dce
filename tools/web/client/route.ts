/** The conversation a page address holds: `/c/<contextId>`; none on `/` (a new conversation). */
export function conversationInPath(path = location.pathname): string | undefined {
  const match = /^\/c\/([^/]+)\/?$/.exec(path);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

export function pathFor(contextId: string | undefined): string {
  return contextId ? `/c/${encodeURIComponent(contextId)}` : "/";
}

/** Relative time for the conversation list, e.g. "5 min ago". */
export function ago(iso: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return "";
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(then).toLocaleDateString();
}
