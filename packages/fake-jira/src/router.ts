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

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
}

/** Path patterns use `{name}` segments, as in Atlassian's REST docs. */
export class Router {
  private readonly routes: Route[] = [];

  on(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, parts: pattern.split("/").filter(Boolean), handler });
    return this;
  }

  /** `undefined` when no route has this path; `"method"` when the path exists but not for this method. */
  match(
    method: string,
    path: string,
  ): { handler: Handler; params: Record<string, string> } | "method" | undefined {
    const segments = path.split("/").filter(Boolean);
    let pathMatched = false;
    for (const route of this.routes) {
      const params = matchParts(route.parts, segments);
      if (!params) continue;
      pathMatched = true;
      if (route.method === method) return { handler: route.handler, params };
    }
    return pathMatched ? "method" : undefined;
  }
}

function matchParts(parts: string[], segments: string[]): Record<string, string> | undefined {
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    const segment = segments[i] ?? "";
    if (part.startsWith("{") && part.endsWith("}")) params[part.slice(1, -1)] = decodeURIComponent(segment);
    else if (part !== segment) return undefined;
  }
  return params;
}
