/** One document of the test knowledge base. */
export interface RagDocument {
  document_id: string;
  datasource_id: string;
  title: string;
  source_url: string;
  text: string;
}

/** One datasource and the groups (the token's `groups` claim) that may read it. */
export interface RagDatasource {
  id: string;
  readers: string[];
}

/** A search hit as CAIPE's search returns it. */
export interface SearchHit {
  text_content: string;
  metadata: Record<string, unknown>;
  score: number;
}

/**
 * The knowledge base's content and its access rule, as CAIPE's server applies it: a caller reads the
 * datasources one of their groups may read; a runtime filter's `datasource_id` narrows that set and
 * never widens it; a caller with no verified token reads nothing (CAIPE fails closed).
 */
export class Knowledge {
  constructor(
    readonly datasources: RagDatasource[],
    readonly documents: RagDocument[],
  ) {}

  /** The datasources `groups` may read, narrowed by a filter's `datasource_id` (a string or a list). */
  readable(groups: string[] | undefined, filters: unknown): string[] {
    if (!groups) return [];
    const allowed = this.datasources
      .filter((source) => source.readers.some((reader) => groups.includes(reader)))
      .map((source) => source.id);
    const asked = (filters as { datasource_id?: unknown } | null | undefined)?.datasource_id;
    if (asked === undefined || asked === null) return allowed;
    const wanted = new Set((Array.isArray(asked) ? asked : [asked]).filter((id) => typeof id === "string"));
    return allowed.filter((id) => wanted.has(id));
  }

  /** Documents whose text or title holds the most of the query's words, best first. */
  search(query: string, datasources: string[], limit: number): SearchHit[] {
    const words = query
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 2);
    return this.documents
      .filter((doc) => datasources.includes(doc.datasource_id))
      .map((doc) => {
        const haystack = `${doc.title} ${doc.text}`.toLowerCase();
        const found = words.filter((word) => haystack.includes(word)).length;
        return { doc, score: words.length === 0 ? 0 : found / words.length };
      })
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, Math.max(0, limit))
      .map(({ doc, score }) => ({ text_content: doc.text, metadata: metadataOf(doc), score }));
  }

  fetch(documentId: string, datasources: string[]): RagDocument | undefined {
    return this.documents.find(
      (doc) => doc.document_id === documentId && datasources.includes(doc.datasource_id),
    );
  }
}

function metadataOf(doc: RagDocument): Record<string, unknown> {
  return {
    document_id: doc.document_id,
    datasource_id: doc.datasource_id,
    title: doc.title,
    source_url: doc.source_url,
    document_type: "text",
  };
}
