import type { JsonRequest } from "@switchboard/agent-runtime";
import { SwitchboardError } from "@switchboard/common";
import type { SentCredentials } from "./auth.js";
import { bodyKindOf, type JsonSchema, type Operation } from "./operations.js";
import { cookiePairs, headerText, pathText, queryPairs, styleOf } from "./styles.js";

function argumentError(message: string): SwitchboardError {
  // Third-party: the model reads it as the tool's result and can call again with other arguments.
  return new SwitchboardError("openapi.arguments", "third-party", message);
}

/** A path segment URLs read as "this" or "the parent" (even percent-encoded): never sent. */
const DOT_SEGMENT = /^(\.|%2e){1,2}$/i;
/** What no header or cookie value may hold: a line break or NUL would start another header. */
const LINE_BREAK = /[\r\n\0]/;

/**
 * The operation's path with the call's path parameters filled in as their style lays them out
 * (simple, label, matrix), each value percent-encoded so `/`, `?`, `#` stay inside its segment:
 * `../admin` or `http://evil/` stays a segment of the configured API's path. A segment that comes
 * out `.` or `..` is refused: URLs read it (even percent-encoded) as "this" and "the parent".
 */
export function pathOf(operation: Operation, args: Record<string, unknown>): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = args[name];
    if (value === undefined || value === null || value === "")
      throw argumentError(`${operation.tool} needs ${name}: give it a value.`);
    const text = typeof value === "object" ? JSON.stringify(value) : String(value);
    if (DOT_SEGMENT.test(text))
      throw argumentError(`${operation.tool}: ${name} cannot be "${text}": give the ${name} itself.`);
    const parameter = operation.parameters.find((one) => one.in === "path" && one.name === name);
    const { style, explode } = styleOf("path", parameter?.style, parameter?.explode);
    return pathText(name, value, style, explode);
  });
  for (const segment of path.split("/"))
    if (DOT_SEGMENT.test(segment))
      throw argumentError(
        `${operation.tool}: a path argument cannot be "${segment}": give the value itself, not a move between paths.`,
      );
  return path;
}

/** The question a change asks: what the operation does, and the call (every argument follows whole). */
export function confirmationOf(operation: Operation, args: Record<string, unknown>): string {
  return `${operation.about} (${operation.method} ${pathOf(operation, args)})`;
}

/**
 * The HTTP request of one call: the configured base URL and the operation's path; query, header and
 * cookie parameters as their style and explode lay them out (styles.ts); the body as its media type
 * says (JSON, form, multipart); the credentials. The URL is checked to be on the base URL's origin
 * and under its path before it is returned.
 */
export function requestOf(
  operation: Operation,
  args: Record<string, unknown>,
  baseUrl: URL,
  credentials: SentCredentials,
): JsonRequest {
  const query: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: Array<[string, string]> = [];
  for (const parameter of operation.parameters) {
    const value = args[parameter.name];
    if (value === undefined || value === null || parameter.in === "path") continue;
    const { style, explode } = styleOf(parameter.in, parameter.style, parameter.explode);
    if (parameter.in === "query") query.push(...queryPairs(parameter.name, value, style, explode));
    else if (parameter.in === "cookie") cookies.push(...cookiePairs(parameter.name, value, explode));
    else {
      const text = headerText(value, explode);
      if (LINE_BREAK.test(text))
        throw argumentError(
          `${operation.tool}: the ${parameter.name} header cannot hold a line break: give it on one line.`,
        );
      headers[parameter.name.toLowerCase()] = text;
    }
  }
  // A credential's parameter and cookie are the client's: a model's value of the same name is dropped.
  const ownKeys = credentials.query.map(([name]) => `${encodeURIComponent(name)}=`);
  const pairs = [
    ...query.filter((pair) => !ownKeys.some((key) => pair.startsWith(key))),
    ...credentials.query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
  ];
  Object.assign(headers, credentials.headers);
  const root = baseUrl.href.replace(/\/+$/, "");
  const search = pairs.join("&");
  const url = new URL(`${root}${pathOf(operation, args)}${search ? `?${search}` : ""}`);
  const rootPath = new URL(root).pathname.replace(/\/+$/, "");
  if (url.origin !== baseUrl.origin || !`${url.pathname}/`.startsWith(`${rootPath}/`))
    throw argumentError(
      `${operation.tool}: the arguments lead outside the API's base URL: give plain values.`,
    );
  const body = bodyOf(operation, args.body);
  const allCookies = [
    ...cookies.filter(([name]) => !credentials.cookies.some(([own]) => own === name)),
    ...credentials.cookies,
  ];
  return {
    method: operation.method,
    // Followed, a redirect would carry the credentials to wherever it points.
    redirect: "manual",
    url: url.href,
    ...(allCookies.length > 0 ? { cookies: allCookies } : {}),
    ...body,
    headers: { ...body.headers, ...headers },
  };
}

/** The body argument as the operation's media type sends it. */
function bodyOf(operation: Operation, body: unknown): Pick<JsonRequest, "body" | "form" | "headers"> {
  if (body === undefined || !operation.body) return {};
  const kind = bodyKindOf(operation.body.mediaType);
  // JSON under its own media type (application/merge-patch+json, a vendor's +json): some APIs take no other.
  if (kind === "json")
    return /^application\/json\b/i.test(operation.body.mediaType)
      ? { body }
      : { body, headers: { "content-type": operation.body.mediaType } };
  if (body === null || typeof body !== "object" || Array.isArray(body))
    throw argumentError(
      `${operation.tool}: body is a ${operation.body.mediaType} form: give its fields as an object.`,
    );
  const fields = Object.entries(body as Record<string, unknown>).filter(([, value]) => value !== undefined);
  const encoding = operation.body.encoding ?? {};
  if (kind === "form") {
    const form = new URLSearchParams();
    for (const [name, value] of fields) {
      const { style, explode } = styleOf("query", encoding[name]?.style, encoding[name]?.explode);
      for (const pair of queryPairs(name, value, style, explode)) {
        const at = pair.indexOf("=");
        form.append(decodeURIComponent(pair.slice(0, at)), decodeURIComponent(pair.slice(at + 1)));
      }
    }
    return { form };
  }
  return { form: multipartOf(operation, fields, encoding) };
}

type FieldEncoding = NonNullable<NonNullable<Operation["body"]>["encoding"]>[string];

/**
 * A multipart body: each field a part. A file field (a string of `format: binary`, or with
 * `contentMediaType`) is a file part named after the field, its content the text the model gave;
 * with `contentEncoding: base64` the model gives base64 and the part carries the decoded bytes. An
 * array of plain values is one part per value; an object is one part holding its JSON.
 */
function multipartOf(
  operation: Operation,
  fields: Array<[string, unknown]>,
  encoding: Record<string, FieldEncoding>,
): FormData {
  const properties = ((operation.body?.schema.properties ?? {}) as Record<string, JsonSchema>) ?? {};
  const form = new FormData();
  for (const [name, value] of fields) {
    const schema = properties[name] ?? {};
    const file =
      schema.format === "binary" ||
      typeof schema.contentMediaType === "string" ||
      schema.contentEncoding === "base64";
    if (file) {
      const type =
        encoding[name]?.contentType?.split(",")[0]?.trim() ??
        (typeof schema.contentMediaType === "string" ? schema.contentMediaType : "application/octet-stream");
      const text = typeof value === "string" ? value : JSON.stringify(value);
      if (schema.contentEncoding === "base64" && !/^[A-Za-z0-9+/\s]*=*\s*$/.test(text))
        throw argumentError(`${operation.tool}: body.${name} is a file given as base64: give it as base64.`);
      const bytes =
        schema.contentEncoding === "base64" ? Buffer.from(text, "base64") : Buffer.from(text, "utf8");
      form.append(name, new Blob([bytes], { type }), name);
    } else if (Array.isArray(value))
      for (const item of value)
        form.append(name, typeof item === "object" && item !== null ? JSON.stringify(item) : String(item));
    else
      form.append(name, typeof value === "object" && value !== null ? JSON.stringify(value) : String(value));
  }
  return form;
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
