import { type Handler, isRecord, VendorHttpError } from "../vendor-server.js";
import { cqlMatcher } from "./cql.js";
import type { ConfluenceState, Page } from "./state.js";

const API = "/wiki/rest/api";

function content(state: ConfluenceState, page: Page, expand: string[]) {
  const space = state.spaces.find((one) => one.key === page.spaceKey);
  return {
    id: page.id,
    type: "page",
    status: "current",
    title: page.title,
    ...(expand.some((one) => one.startsWith("space"))
      ? { space: { key: page.spaceKey, name: space?.name } }
      : {}),
    ...(expand.some((one) => one.startsWith("version"))
      ? { version: { number: page.version, when: page.updatedAt, by: { displayName: page.updatedBy } } }
      : {}),
    ...(expand.includes("body.storage")
      ? { body: { storage: { value: page.body, representation: "storage" } } }
      : {}),
    _links: {
      webui: `/spaces/${page.spaceKey}/pages/${page.id}`,
      base: "https://example.atlassian.net/wiki",
    },
  };
}

const expandOf = (query: URLSearchParams) =>
  query
    .getAll("expand")
    .flatMap((one) => one.split(","))
    .map((one) => one.trim());

/** The storage body of a create or update request: `body.storage.value`. */
function storageBody(body: Record<string, unknown>): string {
  const storage = isRecord(body.body) ? body.body.storage : undefined;
  if (!isRecord(storage) || typeof storage.value !== "string" || storage.representation !== "storage") {
    throw new VendorHttpError(400, "body.storage with representation storage is required");
  }
  return storage.value;
}

export function confluenceRoutes(state: ConfluenceState): Array<["GET" | "POST" | "PUT", string, Handler]> {
  const findPage = (id: string) => {
    const page = state.pages.find((one) => one.id === id);
    if (!page) throw new VendorHttpError(404, `No content found with id : ContentId{id=${id}}`);
    return page;
  };

  const search: Handler = ({ query }) => {
    const cql = query.get("cql") ?? "";
    let matches: (page: Page) => boolean;
    try {
      matches = cqlMatcher(cql);
    } catch (error) {
      throw new VendorHttpError(400, (error as Error).message);
    }
    const limit = Math.min(Number(query.get("limit") ?? 25) || 25, 100);
    const pages = state.pages.filter(matches).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const results = pages.slice(0, limit).map((page) => ({
      content: content(state, page, []),
      title: page.title,
      excerpt: page.body
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim()
        .slice(0, 120),
      url: `/spaces/${page.spaceKey}/pages/${page.id}`,
      resultGlobalContainer: {
        title: state.spaces.find((one) => one.key === page.spaceKey)?.name ?? page.spaceKey,
      },
      lastModified: page.updatedAt,
      entityType: "content",
    }));
    return {
      status: 200,
      body: {
        results,
        start: 0,
        limit,
        size: results.length,
        totalSize: pages.length,
        cqlQuery: cql,
        _links: {},
      },
    };
  };

  const getContent: Handler = ({ params, query }) => ({
    status: 200,
    body: content(state, findPage(params.id ?? ""), expandOf(query)),
  });

  const createContent: Handler = ({ body }) => {
    if (!isRecord(body) || body.type !== "page") throw new VendorHttpError(400, "type page is required");
    const title = typeof body.title === "string" ? body.title.trim() : "";
    if (!title) throw new VendorHttpError(400, "Title is required");
    const spaceKey = isRecord(body.space) && typeof body.space.key === "string" ? body.space.key : "";
    if (!state.spaces.some((one) => one.key === spaceKey))
      throw new VendorHttpError(400, `No space with key : ${spaceKey}`);
    if (
      state.pages.some((one) => one.spaceKey === spaceKey && one.title.toLowerCase() === title.toLowerCase())
    ) {
      throw new VendorHttpError(
        400,
        `A page with this title already exists: A page already exists with the title ${title} in the space with key ${spaceKey}`,
      );
    }
    const ancestor =
      Array.isArray(body.ancestors) && isRecord(body.ancestors[0]) ? String(body.ancestors[0].id) : undefined;
    if (ancestor) findPage(ancestor);
    const page: Page = {
      id: String(state.nextId++),
      title,
      spaceKey,
      body: storageBody(body),
      version: 1,
      updatedAt: new Date().toISOString(),
      updatedBy: "Switchboard",
      ...(ancestor ? { parentId: ancestor } : {}),
    };
    state.pages.push(page);
    state.changes.push({ action: "create", pageId: page.id, title, version: 1 });
    return { status: 200, body: content(state, page, ["space", "version"]) };
  };

  const updateContent: Handler = ({ params, body }) => {
    const page = findPage(params.id ?? "");
    if (!isRecord(body) || body.type !== "page") throw new VendorHttpError(400, "type page is required");
    const version = isRecord(body.version) ? Number(body.version.number) : Number.NaN;
    // Confluence's optimistic locking: the update names the next version number.
    if (version !== page.version + 1) {
      throw new VendorHttpError(
        409,
        `Version must be incremented on update. Current version is: ${page.version}`,
      );
    }
    const title = typeof body.title === "string" && body.title.trim() ? body.title.trim() : page.title;
    page.body = storageBody(body);
    page.title = title;
    page.version = version;
    page.updatedAt = new Date().toISOString();
    page.updatedBy = "Switchboard";
    state.changes.push({ action: "update", pageId: page.id, title, version });
    return { status: 200, body: content(state, page, ["space", "version"]) };
  };

  return [
    ["GET", `${API}/search`, search],
    ["GET", `${API}/content/{id}`, getContent],
    ["POST", `${API}/content`, createContent],
    ["PUT", `${API}/content/{id}`, updateContent],
  ];
}
