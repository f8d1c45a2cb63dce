import FindMyWay from "find-my-way";
import type { FakeJiraState } from "./state.js";

export interface RouteContext {
  state: FakeJiraState;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  /** Base URL of this server, for `self` links. */
  baseUrl: string;
}

export interface RouteResult {
  status: number;
  body?: unknown;
}

export type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

type Match = { handler: Handler; params: Record<string, string> };

/**
 * Path patterns use `{name}` segments, as in Atlassian's REST docs; find-my-way spells them `:name`.
 * Its handlers take (req, res), so ours ride in each route's store instead.
 */
export class Router {
  // Stray slashes (`/myself/`, `//`) still match, and long keys are not cut off at find-my-way's 100 characters.
  private readonly routes = FindMyWay({
    ignoreTrailingSlash: true,
    ignoreDuplicateSlashes: true,
    maxParamLength: Number.MAX_SAFE_INTEGER,
  });
  /** find-my-way keeps one tree per method, so a 405 asks each method that has routes. */
  private readonly methods = new Set<FindMyWay.HTTPMethod>();

  on(method: FindMyWay.HTTPMethod, pattern: string, handler: Handler): this {
    this.routes.on(method, pattern.replace(/\{(\w+)\}/g, ":$1"), () => undefined, handler);
    this.methods.add(method);
    return this;
  }

  /**
   * `undefined` when no route has this path; `"method"` when the path exists but not for this method.
   * Params come back URL-decoded.
   */
  match(method: string, path: string): Match | "method" | undefined {
    // The cast is safe: find-my-way finds nothing for a method it has no routes for, known or not.
    const found = this.routes.find(method as FindMyWay.HTTPMethod, path);
    if (found) {
      const params = Object.entries(found.params).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      );
      return { handler: found.store as Handler, params: Object.fromEntries(params) };
    }
    for (const other of this.methods) if (this.routes.find(other, path)) return "method";
    return undefined;
  }
}
