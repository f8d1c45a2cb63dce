import type { KnowledgeDocument } from "../ingest.js";
import { type Connector, credential } from "./connector.js";
import type { SourceOf } from "./definition.js";
import { type Asking, getJson } from "./http.js";

/** A catalog entity, as much of it as a document reads. */
export interface CatalogEntity {
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    title?: string;
    description?: string;
    tags?: string[];
    links?: Array<{ url: string; title?: string }>;
  };
  spec?: Record<string, unknown>;
  relations?: Array<{ type: string; targetRef: string }>;
}

/** Entities asked for at once. */
const PAGE_SIZE = 200;

/** `kind:namespace/name`, lower-cased, as Backstage writes an entity's ref. */
export function entityRef(entity: CatalogEntity): string {
  return `${entity.kind}:${entity.metadata.namespace ?? "default"}/${entity.metadata.name}`.toLowerCase();
}

/** An entity as Markdown a question finds: what it is, who owns it, what it belongs to, and its links. */
export function entityMarkdown(entity: CatalogEntity): string {
  const { metadata, spec = {} } = entity;
  const field = (label: string, value: unknown) =>
    typeof value === "string" && value.trim() ? [`- ${label}: ${value}`] : [];
  return [
    `# ${metadata.title ?? metadata.name}`,
    "",
    ...(metadata.description ? [metadata.description, ""] : []),
    `- Kind: ${entity.kind}`,
    ...field("Type", spec.type),
    ...field("Owner", spec.owner),
    ...field("System", spec.system),
    ...field("Lifecycle", spec.lifecycle),
    ...field("Domain", spec.domain),
    ...(metadata.tags?.length ? [`- Tags: ${metadata.tags.join(", ")}`] : []),
    ...(entity.relations ?? []).map((one) => `- ${one.type}: ${one.targetRef}`),
    ...(metadata.links?.length
      ? ["", "## Links", ...metadata.links.map((one) => `- ${one.title ?? one.url}: ${one.url}`)]
      : []),
  ].join("\n");
}

/** The catalog's entities (those the source's filters match), each a document readable by the source's readers. */
export const backstage: Connector<SourceOf<"backstage">> = async ({ source, env, http, listed }) => {
  const headers = { authorization: `Bearer ${credential(env, source.token_env, source)}` };
  const asking: Asking = { who: `Backstage (source "${source.id}")`, tokenEnv: source.token_env };
  const documents: KnowledgeDocument[] = [];
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
    for (const filter of source.filter ?? []) query.append("filter", filter);
    if (cursor) query.set("cursor", cursor);
    const page = await getJson<{ items: CatalogEntity[]; pageInfo?: { nextCursor?: string } }>(
      http,
      `${source.url}/api/catalog/entities/by-query?${query}`,
      headers,
      asking,
    );
    listed(page.items.length);
    for (const entity of page.items) {
      const namespace = entity.metadata.namespace ?? "default";
      documents.push({
        id: entityRef(entity),
        uri: `${source.url}/catalog/${encodeURIComponent(namespace)}/${encodeURIComponent(entity.kind.toLowerCase())}/${encodeURIComponent(entity.metadata.name)}`,
        title: entity.metadata.title ?? entity.metadata.name,
        text: entityMarkdown(entity),
        readers: source.readers,
      });
    }
    cursor = page.pageInfo?.nextCursor;
  } while (cursor);
  return { documents, failed: [] };
};
