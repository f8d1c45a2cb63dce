import { SwitchboardError } from "@switchboard/common";
import { Cron } from "croner";
import { parse as parseYaml } from "yaml";
import { z } from "zod";

/**
 * The sources of the knowledge base, as KNOWLEDGE_SOURCES_FILE lists them (YAML, `sources:`), snake_case
 * as CAIPE's settings are. Credentials are never written here: a source names the variable that holds
 * one (`token_env`), read from the process's environment at each sync.
 */

const name = z.string().trim().min(1);
const names = z.array(name).min(1);

/** Who may read a source's documents when the source itself does not say (see readers.ts). */
const ReadersSchema = z.union([
  z.literal("everyone"),
  z
    .strictObject({ groups: z.array(name).optional(), users: z.array(name).optional() })
    .refine((one) => (one.groups?.length ?? 0) + (one.users?.length ?? 0) > 0, {
      message: 'name at least one group or user, or write readers: "everyone"',
    }),
]);

/**
 * A variable's name, never its value (a value pasted here would sit in a file and in logs), and one
 * meant for the source's vendor: a sources file cannot have a sync send another service's secret
 * (OPENAI_API_KEY, a database password) to the URL it names.
 */
const envName = (...prefixes: string[]) =>
  z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, "must be the NAME of an environment variable (A-Z, 0-9, _), not its value")
    .refine((name) => [...prefixes, "KNOWLEDGE_"].some((prefix) => name.startsWith(prefix)), {
      message: `must name a variable starting with ${[...prefixes, "KNOWLEDGE_"].join(", ")}: a source sends only a credential meant for its vendor`,
    });

const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .transform((url) => url.replace(/\/+$/, ""));

const common = {
  /** Stable: it keys the source's documents, so renaming it ingests everything again under the new id. */
  id: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._-]{0,63}$/i,
      "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit",
    ),
  name: name.optional(),
  /** Cron (croner's syntax) in `timezone`; none: synced on demand only. */
  schedule: name.optional(),
  timezone: name.optional(),
  /** Groups whose members may sync this source now (the rag-server's datasources API). */
  admins: z.array(name).optional(),
};

/**
 * Readers come from the source itself for Confluence (space permissions and page restrictions) and
 * GitHub (public, or the repository's teams and collaborators); a `readers` there could only widen
 * what the source says, so it is refused.
 */
const ownPermissions = {
  readers: z
    .never({ error: "is not taken here: this source's readers come from its own permissions" })
    .optional(),
  /**
   * Whether the vendor's user names (Confluence accountIds, GitHub logins) are the users' token subjects
   * (`sub`). Off by default: a vendor account that shares a subject with another person would read as
   * them; then only the vendor's groups and teams, matched to the token's groups by name, grant reading.
   */
  match_users: z.boolean().default(false),
};
const ownReaders = { readers: ReadersSchema };

const ConfluenceSource = z.strictObject({
  ...common,
  ...ownPermissions,
  type: z.literal("confluence"),
  /** The site's base, as the REST API sits under it: `https://acme.atlassian.net/wiki` serves `/rest/api`. */
  url: httpUrl,
  spaces: names,
  username_env: envName("CONFLUENCE_", "ATLASSIAN_").default("CONFLUENCE_USERNAME"),
  token_env: envName("CONFLUENCE_", "ATLASSIAN_").default("CONFLUENCE_API_TOKEN"),
});

const GithubSource = z.strictObject({
  ...common,
  ...ownPermissions,
  type: z.literal("github"),
  /** `owner/name`. */
  repo: z
    .string()
    .regex(/^[\w.-]+\/[\w.-]+$/, "must be owner/name")
    .refine((repo) => repo.split("/").every((part) => !/^\.+$/.test(part)), "must be owner/name"),
  /** Branch, tag or commit; default the repository's default branch. */
  ref: name.optional(),
  /** Folders (or files) to read, from the repository's root; default all of it. Markdown files only. */
  paths: z.array(z.string().trim()).optional(),
  /** The REST API's base (GitHub Enterprise: `https://github.example.com/api/v3`). */
  api_url: httpUrl.default("https://api.github.com"),
  token_env: envName("GITHUB_").default("GITHUB_PERSONAL_ACCESS_TOKEN"),
});

const BackstageSource = z.strictObject({
  ...common,
  ...ownReaders,
  type: z.literal("backstage"),
  /** Backstage's base URL (its backend serves `/api/catalog`; entity pages link under it). */
  url: httpUrl,
  /** Catalog filters (`kind=component,spec.type=service`), any of which may match; default every entity. */
  filter: z.array(name).optional(),
  token_env: envName("BACKSTAGE_").default("BACKSTAGE_API_TOKEN"),
});

const WebSource = z
  .strictObject({
    ...common,
    ...ownReaders,
    type: z.literal("web"),
    /** Pages read as they are. */
    urls: z.array(httpUrl).optional(),
    /** A sitemap (or sitemap index) whose pages are read. */
    sitemap: httpUrl.optional(),
    /** The most pages one sync reads. */
    max_pages: z.number().int().positive().max(100_000).default(1_000),
  })
  .refine((one) => (one.urls?.length ?? 0) > 0 || one.sitemap, {
    message: "needs urls (pages to read) or a sitemap",
  });

const UploadSource = z.strictObject({ ...common, ...ownReaders, type: z.literal("upload") });

export const SourceDefinitionSchema = z.discriminatedUnion("type", [
  ConfluenceSource,
  GithubSource,
  BackstageSource,
  WebSource,
  UploadSource,
]);

export type SourceDefinition = z.infer<typeof SourceDefinitionSchema>;
export type SourceType = SourceDefinition["type"];
export type SourceOf<T extends SourceType> = Extract<SourceDefinition, { type: T }>;

/**
 * What is wrong with a source's schedule and time zone, read as the rag-server's croner will: caught
 * when the file is read, naming the entry, rather than when the schedules are armed.
 */
export function scheduleProblems(source: Pick<SourceDefinition, "schedule" | "timezone">): string[] {
  const problems: string[] = [];
  if (source.timezone) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: source.timezone });
    } catch {
      problems.push(
        `timezone: "${source.timezone}" is not a time zone; use an IANA name such as Europe/Amsterdam`,
      );
    }
  }
  if (source.timezone && !source.schedule)
    problems.push("timezone: is for a schedule; give the schedule too");
  if (source.schedule && problems.length === 0) {
    try {
      new Cron(source.schedule, {
        paused: true,
        ...(source.timezone ? { timezone: source.timezone } : {}),
      }).stop();
    } catch (error) {
      problems.push(
        `schedule: "${source.schedule}" is not a cron pattern (${(error as Error).message}); e.g. "0 */6 * * *" for every six hours`,
      );
    }
  }
  return problems;
}

const SourcesFile = z.strictObject({ sources: z.array(z.unknown()) });

/** Where in an entry a problem is, as a person finds it in the file: `spaces[0]`. */
function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((part, at) => (typeof part === "number" ? `[${part}]` : `${at === 0 ? "" : "."}${String(part)}`))
    .join("");
}

/**
 * The sources of a KNOWLEDGE_SOURCES_FILE's text. Every problem of every entry is named at once, by
 * the entry's position and id and the field, with what it must be; ids must be unique (they key the
 * documents).
 */
export function readSourcesFile(text: string): SourceDefinition[] {
  const refuse = (problems: string[]) =>
    new SwitchboardError(
      "knowledge.sources",
      "user",
      `KNOWLEDGE_SOURCES_FILE: ${problems.join("; ")}. Correct the file (see packages/knowledge's README, "Sources").`,
    );
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw refuse([`is not valid YAML (${(error as Error).message.split("\n")[0]})`]);
  }
  const file = SourcesFile.safeParse(document ?? {});
  if (!file.success) throw refuse(["must be a mapping with a list `sources:` of source entries"]);

  const problems: string[] = [];
  const sources: SourceDefinition[] = [];
  const seen = new Set<string>();
  file.data.sources.forEach((entry, index) => {
    const id = typeof (entry as { id?: unknown })?.id === "string" ? (entry as { id: string }).id : undefined;
    const where = `sources[${index}]${id ? ` (${id})` : ""}`;
    const parsed = SourceDefinitionSchema.safeParse(entry);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = pathText(issue.path);
        problems.push(`${where}${field ? ` ${field}` : ""}: ${issue.message}`);
      }
      return;
    }
    const scheduling = scheduleProblems(parsed.data);
    if (scheduling.length > 0) {
      for (const problem of scheduling) problems.push(`${where} ${problem}`);
      return;
    }
    if (seen.has(parsed.data.id)) {
      problems.push(`${where}: the id "${parsed.data.id}" is used twice; give each source its own id`);
      return;
    }
    seen.add(parsed.data.id);
    sources.push(parsed.data);
  });
  if (problems.length > 0) throw refuse(problems);
  return sources;
}
