import { createHash } from "node:crypto";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { redactSecrets } from "@switchboard/common";
import { type ChunkingOptions, chunksOf, embeddingInput } from "./chunking.js";
import type { Engine, Queryable } from "./engine.js";
import { type Readers, readerTags } from "./readers.js";
import { recordSync } from "./sync-status.js";

/** One document of a source, as an ingester hands it over. */
export interface KnowledgeDocument {
  /** Stable within its source (a page id, a file path): the same id is the same document. */
  id: string;
  /** Where a person reads it: the link an answer cites. */
  uri: string;
  title: string;
  /** Markdown or plain text. */
  text: string;
  readers: Readers;
  /** When the source last changed it (default: now). */
  updatedAt?: Date;
}

export interface UpsertResult {
  added: string[];
  /** Documents whose text or title changed: embedded again, their chunks replaced. */
  changed: string[];
  /** Same text and title: not embedded again (their link, readers and time are brought up to date). */
  unchanged: string[];
  /** Documents left as they were (their previous version still searchable), with why. */
  failed: Array<{ id: string; error: string }>;
}

export interface IngestContext {
  engine: Engine;
  embeddings: EmbeddingsInterface;
  dimensions: number;
  chunking: ChunkingOptions;
}

/** What the chunks are made from: a changed title or text is a changed document; a moved link or new readers are not. */
function contentHash(document: KnowledgeDocument): string {
  return createHash("sha256")
    .update(JSON.stringify([document.title, document.text]))
    .digest("hex");
}

/** pgvector's text form, which both engines cast with `::vector`. */
export function vectorLiteral(vector: number[]): string {
  return `[${vector.join(",")}]`;
}

/** An error as a person reads it on the sources page: its message, without anything shaped like a secret. */
export function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return redactSecrets(message.trim() || (error instanceof Error ? error.name : "unknown error"));
}

/**
 * Brings a source's documents into the store, incrementally: a document whose title and text hash as
 * stored is not embedded again; a new or changed one is chunked and embedded first, then its row and
 * chunks are replaced in one transaction, so a failed embedding leaves its previous version searchable.
 * Each document stands alone: one that fails is named in `failed` and in the source's sync status.
 */
export async function upsertDocuments(
  context: IngestContext,
  sourceId: string,
  documents: KnowledgeDocument[],
): Promise<UpsertResult> {
  const result: UpsertResult = { added: [], changed: [], unchanged: [], failed: [] };
  const stored = new Map(
    (
      await context.engine.query<{ document_id: string; content_hash: string }>(
        `SELECT document_id, content_hash FROM knowledge_documents WHERE source_id = $1 AND document_id = ANY($2::text[])`,
        [sourceId, documents.map((document) => document.id)],
      )
    ).map((row) => [row.document_id, row.content_hash]),
  );
  const seen = new Set<string>();
  for (const document of documents) {
    try {
      if (seen.has(document.id)) throw new Error(`the source listed document "${document.id}" twice`);
      seen.add(document.id);
      const hash = contentHash(document);
      const tags = readerTags(document.readers, document.id);
      const previous = stored.get(document.id);
      if (previous === hash) {
        await saveDocument(context.engine, sourceId, document, hash, tags);
        result.unchanged.push(document.id);
        continue;
      }
      const chunks = await chunksOf(document.title, document.text, context.chunking);
      const vectors = await context.embeddings.embedDocuments(chunks.map(embeddingInput));
      const wrong = vectors.find((vector) => vector.length !== context.dimensions);
      if (vectors.length !== chunks.length || wrong) {
        throw new Error(
          `the embeddings model answered ${vectors.length} vectors of ${wrong?.length ?? context.dimensions} numbers ` +
            `for ${chunks.length} chunks of ${context.dimensions}`,
        );
      }
      await context.engine.transaction(async (tx) => {
        await saveDocument(tx, sourceId, document, hash, tags);
        await tx.query(`DELETE FROM knowledge_chunks WHERE source_id = $1 AND document_id = $2`, [
          sourceId,
          document.id,
        ]);
        await tx.query(
          `INSERT INTO knowledge_chunks (source_id, document_id, ordinal, heading, text, embedding)
           SELECT $1, $2, u.ordinal, u.heading, u.text, u.embedding::vector
           FROM unnest($3::int[], $4::text[], $5::text[], $6::text[]) AS u(ordinal, heading, text, embedding)`,
          [
            sourceId,
            document.id,
            chunks.map((chunk) => chunk.ordinal),
            chunks.map((chunk) => chunk.heading),
            chunks.map((chunk) => chunk.text),
            vectors.map(vectorLiteral),
          ],
        );
      });
      (previous === undefined ? result.added : result.changed).push(document.id);
    } catch (error) {
      result.failed.push({ id: document.id, error: errorText(error) });
    }
  }
  await recordSync(
    context.engine,
    sourceId,
    result.failed.length === 0
      ? undefined
      : `${result.failed.length} of ${documents.length} documents failed; ` +
          result.failed.map((failure) => `"${failure.id}": ${failure.error}`).join("; "),
  );
  return result;
}

async function saveDocument(
  db: Queryable,
  sourceId: string,
  document: KnowledgeDocument,
  hash: string,
  tags: string[],
): Promise<void> {
  await db.query(
    `INSERT INTO knowledge_documents (source_id, document_id, uri, title, content_hash, updated_at, readers)
     VALUES ($1, $2, $3, $4, $5, $6, $7::text[])
     ON CONFLICT (source_id, document_id) DO UPDATE SET
       uri = excluded.uri, title = excluded.title, content_hash = excluded.content_hash,
       updated_at = excluded.updated_at, readers = excluded.readers`,
    [sourceId, document.id, document.uri, document.title, hash, document.updatedAt ?? new Date(), tags],
  );
}

/**
 * Deletes the source's documents (and their chunks) whose ids are not in `keptIds`: what the source
 * no longer has. Call it only after listing the whole source worked: an empty list empties the source.
 * Returns the ids deleted.
 */
export async function removeMissing(engine: Engine, sourceId: string, keptIds: string[]): Promise<string[]> {
  const rows = await engine.query<{ document_id: string }>(
    `DELETE FROM knowledge_documents WHERE source_id = $1 AND NOT (document_id = ANY($2::text[]))
     RETURNING document_id`,
    [sourceId, keptIds],
  );
  return rows.map((row) => row.document_id).sort();
}
