import TurndownService from "turndown";

/** What a reader never sees, dropped from every HTML. */
const UNSEEN = [
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "object",
  "embed",
  "head",
  "title",
  "svg",
  "canvas",
];
/** A web page's furniture, dropped from web pages (not from Confluence's page bodies). */
const FURNITURE = ["nav", "header", "footer", "aside", "form", "button"];

/**
 * A turndown service (HTML to Markdown, so the chunker splits by the headings). Links and images keep
 * their text only: a URL in a chunk helps no search, and an answer cites the document's own link.
 */
function service(drop: string[]): TurndownService {
  const made = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  made.remove(drop as TurndownService.Filter);
  made.addRule("linkText", { filter: "a", replacement: (content) => content });
  made.addRule("imageAlt", {
    filter: "img",
    replacement: (_content, node) =>
      (node as { getAttribute(name: string): string | null }).getAttribute("alt") ?? "",
  });
  return made;
}

const fragments = service(UNSEEN);
const pages = service([...UNSEEN, ...FURNITURE]);

/** Markdown of an HTML fragment or document; `page: true` also drops a web page's nav, header, footer and asides. */
export function htmlToMarkdown(html: string, options: { page?: boolean } = {}): string {
  return (options.page ? pages : fragments)
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  apos: "'",
  nbsp: " ",
};

/** The `<title>` of an HTML document, if it has one. */
export function htmlTitle(html: string): string | undefined {
  const raw = html.match(/<title[^>]*>([\s\S]*?)<\/title>/i)?.[1];
  const title = raw
    ?.replace(/&(#?\w+);/g, (entity, name: string) => ENTITIES[name] ?? entity)
    .replace(/\s+/g, " ")
    .trim();
  return title || undefined;
}
