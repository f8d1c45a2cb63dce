import FindMyWay from "find-my-way";
import type { FakeGithubState } from "./state.js";

export interface RouteContext {
  state: FakeGithubState;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  /** `http://127.0.0.1:port/api/v3`, for `url` fields and Link headers. */
  apiUrl: string;
  /** `http://127.0.0.1:port`, for `html_url` fields. */
  webUrl: string;
  /** The request URL, so pagination can build its Link header from it. */
  requestUrl: URL;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

/**
 * Path patterns use `{name}` segments, as in GitHub's REST docs; find-my-way spells them `:name`.
 * Its handlers take (req, res), so ours ride in each route's store instead.
 */
export class Router {
  // Stray slashes (`/user/`, `//`) still match, and long names are not cut off at find-my-way's 100 characters.
  private readonly routes = FindMyWay({
    ignoreTrailingSlash: true,
    ignoreDuplicateSlashes: true,
    maxParamLength: Number.MAX_SAFE_INTEGER,
  });

  on(method: FindMyWay.HTTPMethod, pattern: string, handler: Handler): this {
    this.routes.on(method, pattern.replace(/\{(\w+)\}/g, ":$1"), () => undefined, handler);
    return this;
  }

  /** Params come back URL-decoded. */
  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | undefined {
    // The cast is safe: find-my-way finds nothing for a method it has no routes for, known or not.
    const found = this.routes.find(method as FindMyWay.HTTPMethod, path);
    if (!found) return undefined;
    const params = Object.entries(found.params).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    );
    return { handler: found.store as Handler, params: Object.fromEntries(params) };
  }
}
