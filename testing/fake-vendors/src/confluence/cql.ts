import type { Page } from "./state.js";

/**
 * The part of CQL the fake understands: clauses `text ~ "…"`, `title ~ "…"`, `space = KEY`,
 * `type = page` (or `space in (A, B)`), joined by AND, optionally followed by ORDER BY.
 * Anything else is refused as Confluence refuses CQL it cannot parse.
 */
export function cqlMatcher(cql: string): (page: Page) => boolean {
  const where = cql.replace(/\s+order\s+by\s+.*$/i, "").trim();
  if (!where) throw new Error("Could not parse cql : empty query");
  const tests = where.split(/\s+AND\s+/i).map((clause) => {
    const match = clause.trim().match(/^(\w+)\s*(=|~|in)\s*(.+)$/i);
    if (!match) throw new Error(`Could not parse cql : ${cql}`);
    const [, field = "", op = "", raw = ""] = match;
    const values = raw
      .replace(/^\((.*)\)$/, "$1")
      .split(",")
      .map((one) =>
        one
          .trim()
          .replace(/^"(.*)"$/, "$1")
          .toLowerCase(),
      );
    const text = (page: Page) => `${page.title} ${page.body.replace(/<[^>]+>/g, " ")}`.toLowerCase();
    switch (field.toLowerCase()) {
      case "text":
        return (page: Page) => values.every((value) => text(page).includes(value));
      case "title":
        return op === "~"
          ? (page: Page) => page.title.toLowerCase().includes(values[0] ?? "")
          : (page: Page) => page.title.toLowerCase() === values[0];
      case "space":
        return (page: Page) => values.includes(page.spaceKey.toLowerCase());
      case "type":
        return () => values.includes("page");
      default:
        throw new Error(`Could not parse cql : unsupported field ${field}`);
    }
  });
  return (page) => tests.every((test) => test(page));
}
