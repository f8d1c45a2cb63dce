import { SwitchboardError } from "@switchboard/common";
import { errorText, type KeptDocument, type KnowledgeDocument } from "../ingest.js";
import type { Readers } from "../readers.js";
import { type Connector, credential } from "./connector.js";
import type { SourceOf } from "./definition.js";
import { type Asking, getJson, type SourceHttp, SourceHttpError } from "./http.js";
import { type Grant, readersOf } from "./vendor-readers.js";

interface Repository {
  private: boolean;
  visibility?: "public" | "private" | "internal";
  default_branch: string;
  html_url: string;
}
interface TreeEntry {
  path: string;
  type: "blob" | "tree" | "commit";
  sha: string;
}

/** Markdown files: READMEs, docs, ADRs (`docs/adr/0001-….md`). */
const MARKDOWN = /\.(md|markdown|mdx)$/i;
/** The largest page GitHub's list endpoints give. */
const PER_PAGE = 100;

/** Whether a file is within the source's `paths` (folders or files from the root); none: the whole repository. */
export function wanted(path: string, paths: string[] | undefined): boolean {
  if (!MARKDOWN.test(path)) return false;
  if (!paths || paths.length === 0) return true;
  return paths.some((one) => {
    const prefix = one.replace(/^\/+|\/+$/g, "");
    return prefix === "" || path === prefix || path.startsWith(`${prefix}/`);
  });
}

/** A Markdown file's title: its first level-1 heading, else its file name without the extension. */
export function markdownTitle(path: string, text: string): string {
  const heading = text.match(/^#\s+(.+?)\s*#*\s*$/m)?.[1];
  return heading?.trim() || (path.split("/").pop() ?? path).replace(MARKDOWN, "");
}

/** Every item of a GitHub list, following its page numbers. */
async function allPages<T>(
  http: SourceHttp,
  url: string,
  headers: Record<string, string>,
  asking: Asking,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const batch = await getJson<T[]>(http, `${url}?per_page=${PER_PAGE}&page=${page}`, headers, asking);
    items.push(...batch);
    if (batch.length < PER_PAGE) return items;
  }
}

/**
 * Who may read a repository's files: everyone when it is public; else its teams (as groups, by slug)
 * and its collaborators (as users, with match_users). Listing collaborators needs push access: a
 * token without it fails the source with the fix, rather than guess.
 */
async function repositoryReaders(
  source: SourceOf<"github">,
  repository: Repository,
  http: SourceHttp,
  headers: Record<string, string>,
  asking: Asking,
): Promise<Readers | undefined> {
  if (!repository.private && (repository.visibility ?? "public") === "public") return "everyone";
  const api = `${source.api_url}/repos/${source.repo}`;
  let users: string[];
  try {
    users = (await allPages<{ login: string }>(http, `${api}/collaborators`, headers, asking)).map(
      (one) => one.login,
    );
  } catch (error) {
    if (error instanceof SourceHttpError && error.status === 403) {
      throw new SourceHttpError(
        403,
        `GitHub (source "${source.id}") does not let the token in ${source.token_env} list ${source.repo}'s ` +
          "collaborators, which decide who may read its private files: give the token push access (or the " +
          "repository's Metadata read permission as a GitHub App)",
      );
    }
    throw error;
  }
  let teams: string[] = [];
  try {
    teams = (await allPages<{ slug: string }>(http, `${api}/teams`, headers, asking)).map((one) => one.slug);
  } catch (error) {
    // A repository owned by a user has no teams.
    if (!(error instanceof SourceHttpError && error.status === 404)) throw error;
  }
  const grant: Grant = { groups: teams, users };
  return readersOf(grant, { matchUsers: source.match_users });
}

export const github: Connector<SourceOf<"github">> = async ({ source, env, http, stored, listed }) => {
  const headers = {
    authorization: `Bearer ${credential(env, source.token_env, source)}`,
    "x-github-api-version": "2022-11-28",
  };
  const asking: Asking = { who: `GitHub (source "${source.id}")`, tokenEnv: source.token_env };
  const api = `${source.api_url}/repos/${source.repo}`;
  const repository = await getJson<Repository>(http, api, headers, asking);
  const readers = await repositoryReaders(source, repository, http, headers, asking);
  const ref = source.ref ?? repository.default_branch;
  const tree = await getJson<{ tree: TreeEntry[]; truncated: boolean }>(
    http,
    `${api}/git/trees/${encodeURIComponent(ref)}?recursive=1`,
    headers,
    asking,
  );
  if (tree.truncated) {
    throw new SwitchboardError(
      "knowledge.source.too_many",
      "user",
      `GitHub (source "${source.id}") cut ${source.repo}'s file list short (too many files): ` +
        "name the folders to read in the source's paths",
    );
  }
  const files = tree.tree.filter((entry) => entry.type === "blob" && wanted(entry.path, source.paths));
  listed(files.length);
  // A repository nobody here may read (private, with no team and no user that counts) gives no documents.
  if (!readers) return { documents: [], failed: [] };

  const documents: KnowledgeDocument[] = [];
  const failed: Array<{ id: string; error: string }> = [];
  const unchanged: KeptDocument[] = [];
  const link = (path: string) =>
    `${repository.html_url}/blob/${encodeURIComponent(ref)}/${path.split("/").map(encodeURIComponent).join("/")}`;
  for (const file of files) {
    // A blob SHA is its content's hash: the same SHA as stored is the same text, not read again.
    if (stored.get(file.path) === file.sha) {
      unchanged.push({ id: file.path, uri: link(file.path), readers });
      continue;
    }
    try {
      const blob = await getJson<{ content: string; encoding: string }>(
        http,
        `${api}/git/blobs/${file.sha}`,
        headers,
        asking,
      );
      const text =
        blob.encoding === "base64" ? Buffer.from(blob.content, "base64").toString("utf8") : blob.content;
      documents.push({
        id: file.path,
        uri: link(file.path),
        title: markdownTitle(file.path, text),
        text,
        readers,
        version: file.sha,
      });
    } catch (error) {
      failed.push({ id: file.path, error: errorText(error) });
    }
  }
  return { documents, failed, unchanged };
};
