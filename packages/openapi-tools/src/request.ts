import type { JsonRequest } from "@switchboard/agent-runtime";
import { SwitchboardError } from "@switchboard/common";
import type { SentCredentials } from "./auth.js";
import type { Operation } from "./operations.js";

function argumentError(message: string): SwitchboardError {
  // Third-party: the model reads it as the tool's result and can call again with other arguments.
  return new SwitchboardError("openapi.arguments", "third-party", message);
}

/**
 * One path parameter as one path segment, encoded whole: `/`, `?`, `#` and `:` in it are percent-
 * encoded, so `../admin` or `http://evil/` stays a segment of the configured API's path. `.` and `..`
 * are refused: URLs read them (even percent-encoded) as "this" and "the parent" segment.
 */
function segment(operation: Operation, name: string, value: unknown): string {
  if (value === undefined || value === null || value === "")
    throw argumentError(`${operation.tool} needs ${name}: give it a value.`);
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  if (/^(\.|%2e){1,2}$/i.test(text))
    throw argumentError(`${operation.tool}: ${name} cannot be "${text}": give the ${name} itself.`);
  return encodeURIComponent(text);
}

/** The operation's path with the call's path parameters filled in, each one encoded segment. */
export function pathOf(operation: Operation, args: Record<string, unknown>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    segment(operation, name, args[name]),
  );
}

/** The question a change asks: what the operation does, and the call (every argument follows whole). */
export function confirmationOf(operation: Operation, args: Record<string, unknown>): string {
  return `${operation.about} (${operation.method} ${pathOf(operation, args)})`;
}

/**
 * The HTTP request of one call: the configured base URL and the operation's path, query parameters
 * (arrays repeated, objects as JSON), header parameters, the JSON body, the credentials. The URL is
 * checked to be on the base URL's origin and under its path before it is returned.
 */
export function requestOf(
  operation: Operation,
  args: Record<string, unknown>,
  baseUrl: URL,
  credentials: SentCredentials,
): JsonRequest {
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    const value = args[parameter.name];
    if (value === undefined || value === null || parameter.in === "path") continue;
    const values = Array.isArray(value)
      ? value.map(String)
      : [typeof value === "object" ? JSON.stringify(value) : String(value)];
    if (parameter.in === "query") for (const one of values) query.append(parameter.name, one);
    else headers[parameter.name.toLowerCase()] = values.join(",");
  }
  for (const [name, value] of credentials.query) query.set(name, value);
  Object.assign(headers, credentials.headers);
  const root = baseUrl.href.replace(/\/+$/, "");
  const search = query.toString();
  const url = new URL(`${root}${pathOf(operation, args)}${search ? `?${search}` : ""}`);
  const rootPath = new URL(root).pathname.replace(/\/+$/, "");
  if (url.origin !== baseUrl.origin || !`${url.pathname}/`.startsWith(`${rootPath}/`))
    throw argumentError(
      `${operation.tool}: the arguments lead outside the API's base URL: give plain values.`,
    );
  return {
    method: operation.method,
    // Followed, a redirect would carry the credentials to wherever it points.
    redirect: "manual",
    url: url.href,
    headers,
    ...(args.body === undefined ? {} : { body: args.body }),
  };
}

const MAX_ANSWER = 6000;

/** The API's answer as the model reads it: its JSON, cut at a length a turn can hold. */
export function answerText(answer: unknown): string {
  if (answer === undefined) return "Done: the API answered without a body.";
  const text = JSON.stringify(answer, null, 1);
  return text.length > MAX_ANSWER
    ? `${text.slice(0, MAX_ANSWER)}\n… (cut: ${text.length} characters in all)`
    : text;
}
