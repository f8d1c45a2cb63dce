import {
  guardedConnector,
  type NetworkGuardRule,
  namesPrivateHost,
  privateHostError,
  undici,
} from "@switchboard/agent-runtime";
import { type Logger, maskUrlSecrets, SwitchboardError } from "@switchboard/common";
import { XMLParser } from "fast-xml-parser";
import { errorText, type KnowledgeDocument } from "../ingest.js";
import type { Connector, Listing } from "./connector.js";
import type { SourceOf } from "./definition.js";
import {
  type Asking,
  httpFailure,
  readBody,
  type SourceHttp,
  SourceHttpError,
  sendOrExplain,
} from "./http.js";
import { textKind, textOf } from "./text.js";

/** The network guard's rule as web sources follow it (agent-runtime's network-guard holds the rule). */
export const WEB_RULE: NetworkGuardRule = {
  what: "web knowledge sources",
  setting: "KNOWLEDGE_WEB_ALLOW_PRIVATE_NETWORKS",
  code: "EPRIVATEKNOWLEDGESOURCE",
};

/** Redirects followed for one page, each to a place checked as the first was. */
const MAX_REDIRECTS = 5;
/** Sitemap indexes nested deeper than this are not followed (a loop, or a sitemap of sitemaps of …). */
const MAX_SITEMAP_DEPTH = 3;

/**
 * The fetch web pages go through: unless private networks are allowed, undici's with the network
 * guard's connector, so every connection (the first and each redirect's, whatever a name resolves
 * to when connecting) reaches a public address only. `close` lets its connections go after a sync.
 */
export function webFetch(
  allowPrivate: boolean,
  plain: typeof fetch,
): { fetch: typeof fetch; close(): Promise<void> } {
  if (allowPrivate) return { fetch: plain, close: async () => {} };
  const { Agent, fetch: undiciFetch } = undici();
  const dispatcher = new Agent({ connect: guardedConnector(WEB_RULE) });
  return {
    fetch: ((input: string | URL, init?: RequestInit) =>
      undiciFetch(input, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch,
    close: () => dispatcher.close(),
  };
}

/** An http(s) URL a web source may read, or the refusal naming why (a private host outright: before any connection). */
export function checkedUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SwitchboardError("knowledge.source.url", "user", `"${maskUrlSecrets(raw)}" is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SwitchboardError(
      "knowledge.source.url",
      "user",
      `${maskUrlSecrets(raw)} is not http(s); web sources read only web pages`,
    );
  }
  if (!allowPrivate && namesPrivateHost(url.hostname)) throw privateHostError(url.host, WEB_RULE);
  url.hash = "";
  return url;
}

/**
 * GET a page, following redirects by hand so each hop is checked (http(s), not a private host
 * outright; the guarded connector checks where it really connects), at most MAX_REDIRECTS.
 */
async function getFollowing(
  http: SourceHttp,
  start: URL,
  allowPrivate: boolean,
  asking: Asking,
): Promise<{ url: URL; response: Response }> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const response = await sendOrExplain(
      http,
      url,
      {
        redirect: "manual",
        headers: { accept: "text/html,application/xhtml+xml,text/plain,text/markdown,application/xml;q=0.9" },
      },
      asking,
    );
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel().catch(() => {});
      if (hop >= MAX_REDIRECTS) {
        throw new SwitchboardError(
          "knowledge.source.redirects",
          "user",
          `${maskUrlSecrets(start.href)} redirects more than ${MAX_REDIRECTS} times; give the page's final URL`,
        );
      }
      url = checkedUrl(new URL(location, url).href, allowPrivate);
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw httpFailure(response.status, url.href, asking);
    }
    return { url, response };
  }
}

/** The `<loc>`s of a sitemap: pages of a `urlset`, sitemaps of a `sitemapindex`. */
export function sitemapLocations(xml: string): { pages: string[]; sitemaps: string[] } {
  const parsed = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, processEntities: true }).parse(
    xml,
  );
  const locs = (entries: unknown) =>
    (Array.isArray(entries) ? entries : entries ? [entries] : []).flatMap((entry) => {
      const loc = (entry as { loc?: unknown })?.loc;
      return typeof loc === "string" && loc.trim() ? [loc.trim()] : [];
    });
  return { pages: locs(parsed?.urlset?.url), sitemaps: locs(parsed?.sitemapindex?.sitemap) };
}

/**
 * A page's document: HTML as Markdown without the page's furniture, text and Markdown as they are, a
 * PDF's text; undefined for what is none of these (an image, an archive), which the source skips.
 */
export async function pageDocument(
  url: URL,
  contentType: string,
  body: Uint8Array,
  readers: KnowledgeDocument["readers"],
): Promise<KnowledgeDocument | undefined> {
  const name = decodeURIComponent(url.pathname.split("/").filter(Boolean).pop() ?? "");
  const kind =
    textKind(name, contentType) ??
    // A server that names no type: HTML if it looks like it.
    (!contentType && /^\s*</.test(new TextDecoder().decode(body.subarray(0, 256))) ? "html" : undefined);
  if (!kind) return undefined;
  const { text, title } = await textOf(kind, name, body);
  return { id: url.href, uri: url.href, title: title ?? (name || url.host), text, readers };
}

/** Web pages, named by `urls` and by a sitemap (or sitemap index), each read under the network guard. */
export const web: Connector<SourceOf<"web">> = async ({ source, http: plain, settings, logger, listed }) => {
  const allowPrivate = settings.webAllowPrivate;
  const guarded = webFetch(allowPrivate, plain.fetch);
  try {
    return await readPages(source, { ...plain, fetch: guarded.fetch }, allowPrivate, logger, listed);
  } finally {
    await guarded.close().catch(() => {});
  }
};

/** The source's pages: listed from `urls` and the sitemap, then each read. */
async function readPages(
  source: SourceOf<"web">,
  http: SourceHttp,
  allowPrivate: boolean,
  logger: Logger,
  listed: (count: number) => void,
): Promise<Listing> {
  const asking: Asking = { who: `The web (source "${source.id}")` };
  const read = async (url: URL) => {
    const { url: final, response } = await getFollowing(http, url, allowPrivate, asking);
    const bytes = await readBody(response, http.maxBytes, final.href);
    return { final, type: response.headers.get("content-type") ?? "", bytes };
  };

  const pages = new Set<string>();
  const add = (raw: string) => {
    if (pages.size >= source.max_pages) return;
    try {
      pages.add(checkedUrl(raw, true).href);
    } catch {
      // A sitemap entry that is no web page is not one of the source's pages.
    }
  };
  for (const url of source.urls ?? []) add(url);
  if (source.sitemap) {
    const seen = new Set<string>();
    const walk = async (at: string, depth: number) => {
      if (seen.has(at) || depth > MAX_SITEMAP_DEPTH || pages.size >= source.max_pages) return;
      seen.add(at);
      const { bytes } = await read(checkedUrl(at, allowPrivate));
      const found = sitemapLocations(new TextDecoder().decode(bytes));
      for (const page of found.pages) add(page);
      for (const child of found.sitemaps) await walk(child, depth + 1);
    };
    await walk(source.sitemap, 0);
  }
  listed(pages.size);

  const documents: KnowledgeDocument[] = [];
  const failed: Array<{ id: string; error: string }> = [];
  for (const page of pages) {
    try {
      const { final, type, bytes } = await read(checkedUrl(page, allowPrivate));
      const document = await pageDocument(final, type, bytes, source.readers);
      if (!document) {
        logger.debug({ page, type }, "not a page the knowledge base reads; skipped");
        continue;
      }
      // The document keeps the listed URL as its id (a redirect's target may change), and links where it ended.
      documents.push({ ...document, id: page });
    } catch (error) {
      // A page that is gone (404, 410) is no longer the source's: it is removed, not kept as failed.
      if (error instanceof SourceHttpError && (error.status === 404 || error.status === 410)) continue;
      failed.push({ id: page, error: errorText(error) });
    }
  }
  return { documents, failed };
}
