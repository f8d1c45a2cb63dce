import type { KnowledgeDocument } from "../ingest.js";
import { errorText } from "../ingest.js";
import { type Connector, credential } from "./connector.js";
import type { SourceOf } from "./definition.js";
import { htmlToMarkdown } from "./html.js";
import { type Asking, getJson } from "./http.js";
import { bothOf, type Grant, readersOf } from "./vendor-readers.js";

/** Confluence's REST API v1 (Cloud, and Data Center's same paths), as much as ingest reads. */
interface Subjects {
  user?: { results?: Array<{ accountId?: string; username?: string }> };
  group?: { results?: Array<{ name?: string }> };
}
interface SpacePermission {
  operation?: { operation?: string; targetType?: string };
  subjects?: Subjects;
  anonymousAccess?: boolean;
}
interface Content {
  id: string;
  title: string;
  body?: { storage?: { value?: string } };
  version?: { number?: number; when?: string };
  ancestors?: Array<{ id: string }>;
  restrictions?: { read?: { restrictions?: Subjects } };
  _links?: { webui?: string };
}
interface ContentPage {
  results: Content[];
  size?: number;
  _links?: { base?: string; next?: string };
}

/** Pages asked for at once (Confluence's own cap for expanded bodies is about 50–100). */
const PAGE_SIZE = 50;
const EXPAND = [
  "body.storage",
  "version",
  "ancestors",
  "restrictions.read.restrictions.user",
  "restrictions.read.restrictions.group",
].join(",");

/** Names in a permission's or restriction's subjects: groups by name, users by accountId (Server: username). */
function grantOf(subjects: Subjects | undefined): { groups: string[]; users: string[] } {
  return {
    groups: (subjects?.group?.results ?? []).flatMap((one) => (one.name ? [one.name] : [])),
    users: (subjects?.user?.results ?? []).flatMap((one) => {
      const id = one.accountId ?? one.username;
      return id ? [id] : [];
    }),
  };
}

/** Who may read a space: anonymous access is everyone; else the groups and users with its read permission. */
export function spaceGrant(permissions: SpacePermission[]): Grant {
  const reads = permissions.filter(
    (one) => one.operation?.operation === "read" && one.operation.targetType === "space",
  );
  if (reads.some((one) => one.anonymousAccess)) return "everyone";
  const grants = reads.map((one) => grantOf(one.subjects));
  return { groups: grants.flatMap((one) => one.groups), users: grants.flatMap((one) => one.users) };
}

/** A read restriction's grant, or undefined when it restricts nothing (no subjects). */
export function restrictionGrant(subjects: Subjects | undefined): Grant | undefined {
  const grant = grantOf(subjects);
  return grant.groups.length + grant.users.length === 0 ? undefined : grant;
}

/**
 * A page's grant: its space's, unless it or an ancestor has read restrictions. Then the restrictions
 * (narrower than the space, as Confluence applies them) decide, every level holding: the names all
 * levels share. A page readable by no one here is not stored.
 */
export function pageGrant(space: Grant, restrictions: Grant[]): Grant {
  if (restrictions.length === 0) return space;
  return restrictions.reduce(bothOf);
}

/**
 * Where a person reads a page: its web UI path under the site the source names (never a base the
 * answer gives, which a lying server could point anywhere), else the page's viewpage link.
 */
export function pageLink(site: string, page: Pick<Content, "id" | "_links">): string {
  const webui = page._links?.webui;
  return webui?.startsWith("/") && !webui.startsWith("//")
    ? `${site}${webui}`
    : `${site}/pages/viewpage.action?pageId=${encodeURIComponent(page.id)}`;
}

export const confluence: Connector<SourceOf<"confluence">> = async ({ source, env, http, listed }) => {
  const auth = Buffer.from(
    `${credential(env, source.username_env, source)}:${credential(env, source.token_env, source)}`,
  ).toString("base64");
  const headers = { authorization: `Basic ${auth}` };
  const asking: Asking = { who: `Confluence (source "${source.id}")`, tokenEnv: source.token_env };
  const api = `${source.url}/rest/api`;
  const documents: KnowledgeDocument[] = [];
  const failed: Array<{ id: string; error: string }> = [];

  for (const key of source.spaces) {
    const space = await getJson<{ permissions?: SpacePermission[] }>(
      http,
      `${api}/space/${encodeURIComponent(key)}?expand=permissions`,
      headers,
      asking,
    );
    const spaceReaders = spaceGrant(space.permissions ?? []);
    const pages: Content[] = [];
    for (let start = 0; ; start += PAGE_SIZE) {
      const query = new URLSearchParams({
        spaceKey: key,
        type: "page",
        status: "current",
        start: String(start),
        limit: String(PAGE_SIZE),
        expand: EXPAND,
      });
      const page = await getJson<ContentPage>(http, `${api}/content?${query}`, headers, asking);
      pages.push(...page.results);
      listed(page.results.length);
      if (page.results.length < PAGE_SIZE) break;
    }

    const restrictionOf = new Map(
      pages.map((page) => [page.id, restrictionGrant(page.restrictions?.read?.restrictions)]),
    );
    const outside = new Map<string, Grant | undefined>();
    const ancestorRestriction = async (id: string) => {
      if (restrictionOf.has(id)) return restrictionOf.get(id);
      if (!outside.has(id)) {
        const read = await getJson<{ restrictions?: Subjects }>(
          http,
          `${api}/content/${encodeURIComponent(id)}/restriction/byOperation/read`,
          headers,
          asking,
        );
        outside.set(id, restrictionGrant(read.restrictions));
      }
      return outside.get(id);
    };

    for (const page of pages) {
      const id = `${key}/${page.id}`;
      try {
        const levels: Grant[] = [];
        for (const ancestor of page.ancestors ?? []) {
          const restriction = await ancestorRestriction(ancestor.id);
          if (restriction) levels.push(restriction);
        }
        const own = restrictionOf.get(page.id);
        if (own) levels.push(own);
        const readers = readersOf(pageGrant(spaceReaders, levels), { matchUsers: source.match_users });
        if (!readers) continue;
        documents.push({
          id,
          uri: pageLink(source.url, page),
          title: page.title,
          text: htmlToMarkdown(page.body?.storage?.value ?? ""),
          readers,
          ...(page.version?.when ? { updatedAt: new Date(page.version.when) } : {}),
        });
      } catch (error) {
        failed.push({ id, error: errorText(error) });
      }
    }
  }
  return { documents, failed };
};
