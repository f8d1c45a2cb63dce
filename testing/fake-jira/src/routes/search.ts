import { isRecord, JiraHttpError } from "../http.js";
import { compileJql } from "../jql.js";
import { parseFieldList, renderIssue } from "../render.js";
import type { RouteContext, RouteResult, Router } from "../router.js";

interface SearchParams {
  jql: string;
  fields: string[] | undefined;
  maxResults: number;
  startAt: number;
  nextPageToken: string | undefined;
}

/** GET takes query parameters, POST the same names in a JSON body. */
function params(ctx: RouteContext): SearchParams {
  const source: Record<string, unknown> = isRecord(ctx.body) ? ctx.body : Object.fromEntries(ctx.query);
  const fields = ctx.query.getAll("fields");
  const maxResults = Number(source.maxResults ?? 50);
  const startAt = Number(source.startAt ?? 0);
  if (!Number.isInteger(maxResults) || maxResults < 0 || !Number.isInteger(startAt) || startAt < 0) {
    throw JiraHttpError.messages(400, "maxResults and startAt must be non-negative integers.");
  }
  return {
    jql: typeof source.jql === "string" ? source.jql : "",
    fields: parseFieldList(isRecord(ctx.body) ? ctx.body.fields : fields.length > 0 ? fields : undefined),
    maxResults: Math.min(maxResults, 5000),
    startAt,
    nextPageToken: typeof source.nextPageToken === "string" ? source.nextPageToken : undefined,
  };
}

function run(ctx: RouteContext, jql: string) {
  const compiled = compileJql(jql, ctx.state);
  const found = ctx.state.issues.filter((i) => compiled.matches(i)).sort((a, b) => compiled.compare(a, b));
  return { compiled, found };
}

/** The enhanced search (`/search/jql`): token paging, and only issue ids unless fields are named. */
function enhancedSearch(ctx: RouteContext): RouteResult {
  const p = params(ctx);
  const { compiled, found } = run(ctx, p.jql);
  if (compiled.unbounded) {
    throw JiraHttpError.messages(
      400,
      "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.",
    );
  }
  const offset = p.nextPageToken ? decodeToken(p.nextPageToken) : 0;
  const page = found.slice(offset, offset + p.maxResults);
  const isLast = offset + page.length >= found.length;
  return {
    status: 200,
    body: {
      issues: page.map((issue) =>
        p.fields === undefined
          ? { id: issue.id }
          : renderIssue(ctx.baseUrl, ctx.state, issue, p.fields, "*navigable"),
      ),
      ...(isLast ? {} : { nextPageToken: encodeToken(offset + page.length) }),
      isLast,
    },
  };
}

/** The legacy `/search` with startAt/total paging, still what older clients and jira.js helpers call. */
function legacySearch(ctx: RouteContext): RouteResult {
  const p = params(ctx);
  const { found } = run(ctx, p.jql);
  const page = found.slice(p.startAt, p.startAt + p.maxResults);
  return {
    status: 200,
    body: {
      expand: "schema,names",
      startAt: p.startAt,
      maxResults: p.maxResults,
      total: found.length,
      issues: page.map((issue) => renderIssue(ctx.baseUrl, ctx.state, issue, p.fields, "*navigable")),
    },
  };
}

function approximateCount(ctx: RouteContext): RouteResult {
  const { found } = run(ctx, params(ctx).jql);
  return { status: 200, body: { count: found.length } };
}

function encodeToken(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString("base64url");
}

function decodeToken(token: string): number {
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, "base64url").toString("utf8"));
  if (!match)
    throw JiraHttpError.messages(
      400,
      "The nextPageToken is invalid; pass the token a previous page returned.",
    );
  return Number(match[1]);
}

export function searchRoutes(router: Router): void {
  router
    .on("GET", "/rest/api/3/search/jql", enhancedSearch)
    .on("POST", "/rest/api/3/search/jql", enhancedSearch)
    .on("GET", "/rest/api/3/search", legacySearch)
    .on("POST", "/rest/api/3/search", legacySearch)
    .on("POST", "/rest/api/3/search/approximate-count", approximateCount);
}
