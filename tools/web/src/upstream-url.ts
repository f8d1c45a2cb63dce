/**
 * The one rule for where this server sends a request it forwards: to the configured service
 * (SWITCHBOARD_URL, SLACK_BOT_URL) and nowhere else, whatever path the page sends.
 *
 * The URL is the configured one with only its path and query replaced (URL setters cannot change
 * scheme, host or port), and a path is refused outright when it could mean anything but itself:
 * an empty segment (`//host`, read as protocol-relative by a URL parser), a backslash (read as `/`),
 * a dot segment (`..`, normalised away), an encoded slash, backslash or dot (decoded by the service
 * behind), control characters, or an `@`. Legitimate paths (A2A endpoints, conversation ids) never
 * hold these.
 */
export function upstreamUrl(target: URL, pathAndQuery: string): URL | undefined {
  const queryAt = pathAndQuery.indexOf("?");
  const path = queryAt === -1 ? pathAndQuery : pathAndQuery.slice(0, queryAt);
  const query = queryAt === -1 ? "" : pathAndQuery.slice(queryAt);
  if (!isPlainPath(path)) return undefined;
  const base = target.pathname.replace(/\/+$/, "");
  const url = new URL(target.href);
  url.username = "";
  url.password = "";
  url.hash = "";
  url.pathname = `${base}${path}`;
  url.search = query;
  // What was built is what was meant: same origin, the path as given (nothing normalised away).
  if (url.origin !== target.origin || url.pathname !== `${base}${path}`) return undefined;
  return url;
}

// Control characters are matched on purpose: a path holding one is refused.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
const UNSAFE = /[\\@\u0000-\u001f\u007f\s]|%(?:2f|5c|2e|40|00)/i;

function isPlainPath(path: string): boolean {
  if (!path.startsWith("/") || UNSAFE.test(path)) return false;
  // Every segment after the leading slash is non-empty and not a dot segment ("/" alone is the root).
  if (path === "/") return true;
  const segments = path.slice(1).split("/");
  return segments.every(
    (segment, index) =>
      (segment !== "" || index === segments.length - 1) && segment !== "." && segment !== "..",
  );
}
