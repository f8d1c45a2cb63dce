import { GithubHttpError } from "./http.js";
import type { RouteContext } from "./router.js";

/**
 * GitHub's page-number pagination: `per_page` (default 30, at most 100) and `page`, with a `Link`
 * header whose `rel="next"` URL is what `octokit.paginate` follows.
 */
export function paginate<T>(ctx: RouteContext, items: T[]): { page: T[]; headers: Record<string, string> } {
  const perPage = Math.min(intParam(ctx, "per_page", 30), 100);
  const page = intParam(ctx, "page", 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n: number, rel: string) => {
    const url = new URL(ctx.requestUrl.href);
    url.searchParams.set("per_page", String(perPage));
    url.searchParams.set("page", String(n));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, "prev"));
  if (page < last) links.push(link(page + 1, "next"), link(last, "last"));
  if (page > 1) links.push(link(1, "first"));
  return {
    page: items.slice((page - 1) * perPage, page * perPage),
    headers: links.length > 0 ? { link: links.join(", ") } : {},
  };
}

function intParam(ctx: RouteContext, name: string, fallback: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new GithubHttpError(
      422,
      `Invalid value for parameter '${name}': ${raw} is not a positive integer.`,
    );
  }
  return value;
}

/** `sort` and `direction` over created/updated timestamps or names, as most list endpoints take them. */
export function sortBy<T>(
  items: T[],
  key: (item: T) => number | string,
  direction: string | null,
  fallback: "asc" | "desc",
): T[] {
  const sign = (direction ?? fallback) === "asc" ? 1 : -1;
  return [...items].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x < y ? -sign : x > y ? sign : 0;
  });
}
