import { type Handler, isRecord, VendorHttpError } from "../vendor-server.js";
import { cqlMatcher } from "./cql.js";
import type { ConfluenceState, Grantees, Page } from "./state.js";

const API = "/wiki/rest/api";

/** Confluence's `subjects` of a permission or restriction: users and groups, each a result list. */
function subjects(grantees: Grantees | undefined) {
  const users = (grantees?.users ?? []).map((accountId) => ({
    type: "known",
    accountId,
    displayName: accountId,
  }));
  const groups = (grantees?.groups ?? []).map((name) => ({ type: "group", name }));
  return {
    user: { results: users, size: users.length },
    group: { results: groups, size: groups.length },
  };
}

/** A page's ancestors, root first. */
function ancestorsOf(state: ConfluenceState, page: Page): Page[] {
  const chain: Page[] = [];
  for (let at = page.parentId; at; ) {
    const parent = state.pages.find((one) => one.id === at);
    if (!parent || chain.includes(parent)) break;
    chain.unshift(parent);
    at = parent.parentId;
  }
  return chain;
}

function readRestriction(page: Page) {
  return { operation: "read", restrictions: subjects(page.restrictions) };
}

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
    ...(expand.includes("ancestors")
      ? { ancestors: ancestorsOf(state, page).map((one) => ({ id: one.id, type: "page", title: one.title })) }
      : {}),
    ...(expand.some((one) => one.startsWith("restrictions.read"))
      ? { restrictions: { read: readRestriction(page) } }
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

  const findSpace = (key: string) => {
    const space = state.spaces.find((one) => one.key === key);
    if (!space) throw new VendorHttpError(404, `No space with key : ${key}`);
    return space;
  };

  // GET /space/{key}?expand=permissions: the space's read permission as Confluence lists it.
  const getSpace: Handler = ({ params, query }) => {
    const space = findSpace(params.key ?? "");
    const grant = space.permissions ?? { groups: ["confluence-users"] };
    const operation = { operation: "read", targetType: "space" };
    return {
      status: 200,
      body: {
        key: space.key,
        name: space.name,
        type: "global",
        ...(expandOf(query).includes("permissions")
          ? {
              permissions: [
                { operation, subjects: subjects(grant), anonymousAccess: false, unlicensedAccess: false },
                ...(grant.anonymous ? [{ operation, anonymousAccess: true, unlicensedAccess: false }] : []),
              ],
            }
          : {}),
      },
    };
  };

  // GET /content?spaceKey=&type=page&start=&limit=&expand=: a space's pages, in id order, a page at a time.
  const listContent: Handler = ({ query }) => {
    const key = query.get("spaceKey");
    if (key) findSpace(key);
    const type = query.get("type") ?? "page";
    const start = Math.max(Number(query.get("start") ?? 0) || 0, 0);
    const limit = Math.min(Number(query.get("limit") ?? 25) || 25, 100);
    const pages =
      type === "page"
        ? state.pages
            .filter((one) => !key || one.spaceKey === key)
            .sort((a, b) => Number(a.id) - Number(b.id))
        : [];
    const results = pages.slice(start, start + limit).map((page) => content(state, page, expandOf(query)));
    return {
      status: 200,
      body: {
        results,
        start,
        limit,
        size: results.length,
        _links: { base: "https://example.atlassian.net/wiki", context: "/wiki" },
      },
    };
  };

  const getReadRestriction: Handler = ({ params }) => ({
    status: 200,
    body: readRestriction(findPage(params.id ?? "")),
  });

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
    ["GET", `${API}/content`, listContent],
    ["GET", `${API}/content/{id}/restriction/byOperation/read`, getReadRestriction],
    ["GET", `${API}/space/{key}`, getSpace],
    ["POST", `${API}/content`, createContent],
    ["PUT", `${API}/content/{id}`, updateContent],
  ];
}
