import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import FindMyWay from "find-my-way";
import { type OpenApiRoutes, openApiMatcher } from "./openapi-routes.js";

/** One request as the fake saw it: what tests assert on (method, path, query, body, answer). */
export interface RequestRecord {
  method: string;
  /** Path without the query string. */
  path: string;
  /** The request target as it came (path and query, encoded as sent). */
  target: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: unknown;
  /** A multipart body's parts as they came (its `body` holds each field's text). */
  parts?: Part[];
  status: number;
}

/** One part of a multipart body: its field, and the file's name and type when it is a file. */
export interface Part {
  name: string;
  filename?: string;
  type?: string;
  /** The part's content as UTF-8 text. */
  text: string;
  bytes: number;
}

export interface RouteContext {
  method: string;
  /** The request's path, without the query. */
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  /** Extra response headers, e.g. GitLab's pagination headers. */
  headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

/** Thrown by handlers and checks; the server answers with this status and the vendor's error body. */
export class VendorHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

/** What differs between vendors: routes, how a request proves who it is, and the error body's shape. */
export interface VendorApi {
  /** The vendor's name, for messages about requests it has no route for. */
  name: string;
  /**
   * The vendor's published OpenAPI description with a handler per operation the fake implements:
   * requests are matched to its operations and validated against it, and answers are checked
   * against its response schemas. Vendors with no description in a registry package give `routes`.
   */
  openApi?: OpenApiRoutes;
  /** Routes written from the vendor's API reference: `[method, "/path/{param}", handler]`. */
  routes?: Array<[FindMyWay.HTTPMethod, string, Handler]>;
  /** Throws a VendorHttpError (401, 406, …) when the headers are not what the vendor accepts. */
  checkRequest(ctx: RouteContext): void;
  errorBody(error: VendorHttpError): unknown;
  /** Answers a request itself, before it is matched or checked (an OAuth2 token endpoint beside the API). */
  before?: (ctx: RouteContext) => RouteResult | undefined;
}

export interface VendorServer {
  /** Base URL, e.g. `http://127.0.0.1:43121`. */
  url: string;
  readonly requests: RequestRecord[];
  close(): Promise<void>;
}

/** Serves one vendor's API on 127.0.0.1 and records every request, so tests see what the real client sent. */
export async function startVendorServer(api: VendorApi, port = 0): Promise<VendorServer> {
  const match = api.openApi ? await openApiMatcher(api.name, api.openApi) : tableMatcher(api.routes ?? []);
  const requests: RequestRecord[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    const record: RequestRecord = {
      method,
      path: url.pathname,
      target: req.url ?? "/",
      query: url.searchParams,
      headers: req.headers,
      body: undefined,
      status: 0,
    };
    requests.push(record);
    let result: RouteResult;
    try {
      const read = await readBody(req);
      record.body = read.body;
      if (read.parts) record.parts = read.parts;
      const early = api.before?.({
        method,
        path: url.pathname,
        params: {},
        query: url.searchParams,
        headers: req.headers,
        body: record.body,
      });
      if (early) {
        record.status = early.status;
        res
          .writeHead(early.status, { ...early.headers, "content-type": "application/json; charset=utf-8" })
          .end(JSON.stringify(early.body ?? {}));
        return;
      }
      const found = match(method, url, req.headers);
      const ctx: RouteContext = {
        method,
        path: url.pathname,
        params: found?.params ?? {},
        query: url.searchParams,
        headers: req.headers,
        body: record.body,
      };
      api.checkRequest(ctx);
      if (!found)
        throw new VendorHttpError(404, `fake ${api.name} has no route for ${method} ${url.pathname}`);
      found.checkRequest?.(ctx);
      result = await found.handler(ctx);
      found.checkAnswer?.(result);
    } catch (error) {
      const failure =
        error instanceof VendorHttpError
          ? error
          : new VendorHttpError(500, `fake ${api.name} failed: ${error}`);
      result = { status: failure.status, body: api.errorBody(failure) };
    }
    record.status = result.status;
    if (result.status === 204 || result.body === undefined) {
      res.writeHead(result.status, result.headers).end();
      return;
    }
    const text = JSON.stringify(result.body);
    res
      .writeHead(result.status, { ...result.headers, "content-type": "application/json; charset=utf-8" })
      .end(text);
  };

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A fake that keeps state: its server, the state, and the changes made through its API (a live view). */
export interface StatefulVendorServer<State extends { changes: unknown[] }> extends VendorServer {
  state: State;
  /** What was changed through the API, oldest first: what tests count. */
  readonly changes: State["changes"];
}

/**
 * Serves a vendor's API over `state` (see `startVendorServer`), with what tests read beside it:
 * `extra` (the credentials it accepts, the URL clients take), the state and its changes.
 */
export async function startStatefulVendorServer<State extends { changes: unknown[] }, Extra extends object>(
  api: VendorApi,
  state: State,
  extra: Extra,
  port?: number,
): Promise<StatefulVendorServer<State> & Extra> {
  const server = await startVendorServer(api, port);
  return {
    ...server,
    ...extra,
    state,
    get changes() {
      return state.changes;
    },
  };
}

/** A request matched to a handler, with the vendor description's checks when there is one. */
export interface Route {
  handler: Handler;
  params: Record<string, string>;
  /** Throws the vendor's 400 when the request breaks the vendor's description (parameters, headers, body). */
  checkRequest?(ctx: RouteContext): void;
  /** Throws when the fake's own answer breaks the description: the fake has drifted from the vendor. */
  checkAnswer?(result: RouteResult): void;
}

function tableMatcher(routes: NonNullable<VendorApi["routes"]>) {
  // Path patterns use `{name}` segments as vendors' API docs do; find-my-way spells them `:name`.
  const router = FindMyWay({ ignoreTrailingSlash: true });
  for (const [method, pattern, handler] of routes) {
    router.on(method, pattern.replace(/\{(\w+)\}/g, ":$1"), () => undefined, handler);
  }
  return (method: string, url: URL): Route | undefined => {
    const found = router.find(method as FindMyWay.HTTPMethod, url.pathname);
    if (!found) return undefined;
    const params = Object.entries(found.params).filter((e): e is [string, string] => e[1] !== undefined);
    return { handler: found.store as Handler, params: Object.fromEntries(params) };
  };
}

async function readBody(req: IncomingMessage): Promise<{ body: unknown; parts?: Part[] }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const type = req.headers["content-type"] ?? "";
  if (type.startsWith("multipart/form-data")) return readMultipart(Buffer.concat(chunks), type);
  return { body: readJson(Buffer.concat(chunks).toString("utf8"), type) };
}

/**
 * A multipart body as an object of its fields' texts (a repeated field as a list), what a
 * description's schema validates, with the parts beside it. Parsed by the platform's own FormData.
 */
async function readMultipart(bytes: Buffer, type: string): Promise<{ body: unknown; parts: Part[] }> {
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new VendorHttpError(400, "The request body is not multipart/form-data.");
  }
  const parts: Part[] = [];
  const body: Record<string, string | string[]> = {};
  for (const [name, value] of form.entries()) {
    const part: Part =
      typeof value === "string"
        ? { name, text: value, bytes: Buffer.byteLength(value) }
        : {
            name,
            filename: value.name,
            ...(value.type ? { type: value.type } : {}),
            text: await value.text(),
            bytes: value.size,
          };
    parts.push(part);
    const before = body[name];
    body[name] =
      before === undefined ? part.text : [...(Array.isArray(before) ? before : [before]), part.text];
  }
  return { body, parts };
}

/**
 * A form's fields: a flat object of strings (Slack's Web API clients post those), a repeated field
 * as a list, and `name[field]` (OpenAPI's deepObject) as an object.
 */
function formFields(text: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const deep = /^([^[\]]+)\[([^[\]]*)\]$/.exec(key);
    if (deep) {
      const [, name = "", field = ""] = deep;
      const object = isRecord(fields[name]) ? (fields[name] as Record<string, unknown>) : {};
      object[field] = value;
      fields[name] = object;
      continue;
    }
    const before = fields[key];
    fields[key] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return fields;
}

function readJson(text: string, type: string): unknown {
  if (text.trim() === "") return undefined;
  if (type.startsWith("application/x-www-form-urlencoded")) return formFields(text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new VendorHttpError(400, "The request body is not JSON.");
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
