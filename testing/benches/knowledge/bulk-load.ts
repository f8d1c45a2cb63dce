import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Engine } from "@switchboard/knowledge";
import type { CorpusPage } from "./corpus.js";

/**
 * Loads pages straight into the store's tables, as the store's own ingest would leave them (a page
 * is one chunk: its title as heading, its text, the vector of "title, blank line, text"), in one
 * multi-row INSERT per table and batch. Only for the corpus past the part ingested through
 * `upsertDocuments` (whose rate the bench reports): the queries then run over the whole corpus in a
 * bench run's time. Bound to packages/knowledge/src/schema.ts and readers.ts (tags `everyone`,
 * `group:<name>`): change them together.
 */
export async function bulkLoad(
  engine: Engine,
  embeddings: EmbeddingsInterface,
  sourceId: string,
  pages: CorpusPage[],
): Promise<void> {
  const vectors = await embeddings.embedDocuments(pages.map((page) => `${page.title}\n\n${page.text}`));
  const documents = pages.map((page) => ({
    id: page.id,
    uri: page.uri,
    title: page.title,
    readers:
      page.readers === "everyone" ? ["everyone"] : page.readers.groups.map((group) => `group:${group}`),
  }));
  const chunks = pages.map((page, index) => ({
    id: page.id,
    title: page.title,
    text: page.text,
    embedding: `[${(vectors[index] as number[]).join(",")}]`,
  }));
  await engine.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO knowledge_documents (source_id, document_id, uri, title, content_hash, updated_at, readers)
       SELECT $1, d.id, d.uri, d.title, 'bulk:' || d.id, now(), d.readers
       FROM jsonb_to_recordset($2::jsonb) AS d(id text, uri text, title text, readers text[])`,
      [sourceId, JSON.stringify(documents)],
    );
    await tx.query(
      `INSERT INTO knowledge_chunks (source_id, document_id, ordinal, heading, text, embedding)
       SELECT $1, c.id, 0, c.title, c.text, c.embedding::vector
       FROM jsonb_to_recordset($2::jsonb) AS c(id text, title text, text text, embedding text)`,
      [sourceId, JSON.stringify(chunks)],
    );
  });
}

/** The store's search indexes (schema.ts): dropped for a bulk load, made again in one build after it. */
const SEARCH_INDEXES = ["knowledge_chunks_embedding", "knowledge_chunks_tsv"];

/**
 * Runs `load` with the search indexes dropped (PostgreSQL), then builds them again by opening the store
 * once more (`reopen`: its schema makes the missing indexes with their own definitions), as an operator
 * loads a large corpus: one index build is far faster than index upkeep row by row.
 */
export async function withoutSearchIndexes(
  engine: Engine,
  load: () => Promise<void>,
  reopen: () => Promise<unknown>,
): Promise<void> {
  // PGlite (one thread of WebAssembly) keeps them: its rebuilt HNSW index answered slower than one kept up.
  if (engine.kind === "postgres") await engine.exec(`DROP INDEX IF EXISTS ${SEARCH_INDEXES.join(", ")}`);
  await load();
  await reopen();
  // The planner's statistics for the new rows (PGlite runs no autovacuum).
  await engine.exec("ANALYZE");
}
