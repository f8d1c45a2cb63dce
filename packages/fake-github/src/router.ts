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

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
}

/** Path patterns use `{name}` segments, as in GitHub's REST docs. */
export class Router {
  private readonly routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, parts: pattern.split("/").filter(Boolean), handler });
    return this;
  }

  match(method: string, path: string): { handler: Handler; params: Record<string, string> } | undefined {
    const segments = path.split("/").filter(Boolean);
    for (const route of this.routes) {
      if (route.method !== method || route.parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const ok = route.parts.every((part, i) => {
        const segment = segments[i] ?? "";
        if (part.startsWith("{")) params[part.slice(1, -1)] = decodeURIComponent(segment);
        return part.startsWith("{") || part === segment;
      });
      if (ok) return { handler: route.handler, params };
    }
    return undefined;
  }
}
