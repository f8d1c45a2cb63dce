import type { Principal } from "@switchboard/agent-runtime";
import type { Queryable } from "./engine.js";
import { principalTags } from "./readers.js";

/** A whole document as its reader gets it back (CAIPE's fetch_document): its chunks in order. */
export interface FetchedDocument {
  sourceId: string;
  documentId: string;
  title: string;
  uri: string;
  /** The chunks' texts in order, joined by a blank line (neighbours share their overlap). */
  text: string;
}

export interface FetchQuery {
  documentId: string;
  /** Who asks: only a document it may read is returned. */
  principal: Principal;
  /** Only these sources (default: all). */
  sources?: string[];
}

/**
 * The document `documentId` names in each source the principal may read it in (one, unless two
 * sources use the same id). The reader filter is in the WHERE, as in search.ts: a document the
 * principal may not read is not found, exactly as one that does not exist.
 */
export async function fetchDocument(db: Queryable, query: FetchQuery): Promise<FetchedDocument[]> {
  const rows = await db.query<{
    source_id: string;
    document_id: string;
    title: string;
    uri: string;
    text: string;
  }>(
    `SELECT d.source_id, d.document_id, d.title, d.uri,
       coalesce(string_agg(c.text, E'\\n\\n' ORDER BY c.ordinal), '') AS text
     FROM knowledge_documents d LEFT JOIN knowledge_chunks c USING (source_id, document_id)
     WHERE d.document_id = $1
       AND d.readers && $2::text[]
       AND ($3::text[] IS NULL OR d.source_id = ANY($3::text[]))
     GROUP BY d.source_id, d.document_id, d.title, d.uri
     ORDER BY d.source_id`,
    [query.documentId, principalTags(query.principal), query.sources ?? null],
  );
  return rows.map((row) => ({
    sourceId: row.source_id,
    documentId: row.document_id,
    title: row.title,
    uri: row.uri,
    text: row.text,
  }));
}

/** The sources holding at least one document the principal may read (filtered in the WHERE). */
export async function readableSources(db: Queryable, principal: Principal): Promise<string[]> {
  const rows = await db.query<{ source_id: string }>(
    `SELECT DISTINCT source_id FROM knowledge_documents WHERE readers && $1::text[] ORDER BY source_id`,
    [principalTags(principal)],
  );
  return rows.map((row) => row.source_id);
}
