import { createHash } from "node:crypto";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { redactSecrets, SwitchboardError } from "@switchboard/common";
import { type Chunk, type ChunkingOptions, chunksOf, embeddingInput } from "./chunking.js";
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
  /**
   * The source's own version of it (a git blob SHA), kept so a later sync can tell it is unchanged
   * without reading it (see {@link keepDocuments}).
   */
  version?: string;
}

/** A document the source says is unchanged (same version as stored): only its link and readers are brought up to date. */
export interface KeptDocument {
  id: string;
  uri: string;
  readers: Readers;
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

export interface UpsertOptions {
  /**
   * Whether this call is a whole sync, recorded in the source's sync status (default). A sync made of
   * several calls (sources/sync.ts) records once, at its end.
   */
  recordSync?: boolean;
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

/**
 * The link schemes a document may have: the web's, and `upload:` for uploaded files. Answers cite the
 * link and the web chat renders it, so a link a source made up (`javascript:`, `data:`, `file:`) is
 * refused here, for every source at once.
 */
const LINK_SCHEMES = new Set(["http:", "https:", "upload:"]);

function checkLink(document: KnowledgeDocument): void {
  let scheme: string | undefined;
  try {
    scheme = new URL(document.uri).protocol;
  } catch {
    scheme = undefined;
  }
  if (!scheme || !LINK_SCHEMES.has(scheme)) {
    throw new SwitchboardError(
      "knowledge.link",
      "user",
      `its link is not an http(s) URL (${scheme ?? "not a URL"}): a document links where a person reads it`,
    );
  }
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

/** Chunks embedded in one call: documents are embedded together up to this many (a provider call each). */
const EMBEDDING_BATCH = 256;

/** A new or changed document on its way in: chunked, waiting for its vectors. */
interface Pending {
  document: KnowledgeDocument;
  hash: string;
  tags: string[];
  added: boolean;
  chunks: Chunk[];
}

/**
 * Brings a source's documents into the store, incrementally: a document whose title and text hash as
 * stored is not embedded again; new and changed ones are chunked and embedded (several documents to a
 * call), then each one's row and chunks are replaced in one transaction, so a failed embedding leaves
 * its previous version searchable. Each document stands alone: when a call fails, its documents are
 * embedded again one by one, and only the one that fails is named in `failed` and in the source's
 * sync status.
 */
export async function upsertDocuments(
  context: IngestContext,
  sourceId: string,
  documents: KnowledgeDocument[],
  options: UpsertOptions = {},
): Promise<UpsertResult> {
  const result: UpsertResult = { added: [], changed: [], unchanged: [], failed: [] };
  const fail = (id: string, error: unknown) => result.failed.push({ id, error: errorText(error) });
  const stored = new Map(
    (
      await context.engine.query<{ document_id: string; content_hash: string }>(
        `SELECT document_id, content_hash FROM knowledge_documents WHERE source_id = $1 AND document_id = ANY($2::text[])`,
        [sourceId, documents.map((document) => document.id)],
      )
    ).map((row) => [row.document_id, row.content_hash]),
  );

  const store = async (batch: Pending[]) => {
    for (const [item, vectors] of await embedBatch(context, batch, fail)) {
      try {
        await writeDocument(context.engine, sourceId, item, vectors);
        (item.added ? result.added : result.changed).push(item.document.id);
      } catch (error) {
        fail(item.document.id, error);
      }
    }
  };
  const seen = new Set<string>();
  let batch: Pending[] = [];
  let batchChunks = 0;
  for (const document of documents) {
    try {
      if (seen.has(document.id)) throw new Error(`the source listed document "${document.id}" twice`);
      seen.add(document.id);
      checkLink(document);
      const hash = contentHash(document);
      const tags = readerTags(document.readers, document.id);
      const previous = stored.get(document.id);
      if (previous === hash) {
        await saveDocument(context.engine, sourceId, document, hash, tags);
        result.unchanged.push(document.id);
        continue;
      }
      const chunks = await chunksOf(document.title, document.text, context.chunking);
      if (batchChunks > 0 && batchChunks + chunks.length > EMBEDDING_BATCH) {
        await store(batch);
        batch = [];
        batchChunks = 0;
      }
      batch.push({ document, hash, tags, added: previous === undefined, chunks });
      batchChunks += chunks.length;
    } catch (error) {
      fail(document.id, error);
    }
  }
  if (batch.length > 0) await store(batch);

  if (options.recordSync === false) return result;
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

/**
 * The vectors of a batch's chunks, in one call; when it fails and the batch holds more than one
 * document, each is embedded alone, so one the provider refuses does not hold the others back.
 */
async function embedBatch(
  context: IngestContext,
  batch: Pending[],
  fail: (id: string, error: unknown) => void,
): Promise<Array<[Pending, number[][]]>> {
  try {
    const vectors = await embedChunks(
      context,
      batch.flatMap((item) => item.chunks),
    );
    const embedded: Array<[Pending, number[][]]> = [];
    let at = 0;
    for (const item of batch) {
      embedded.push([item, vectors.slice(at, at + item.chunks.length)]);
      at += item.chunks.length;
    }
    return embedded;
  } catch (error) {
    if (batch.length === 1) {
      fail((batch[0] as Pending).document.id, error);
      return [];
    }
    const alone: Array<[Pending, number[][]]> = [];
    for (const item of batch) alone.push(...(await embedBatch(context, [item], fail)));
    return alone;
  }
}

async function embedChunks(context: IngestContext, chunks: Chunk[]): Promise<number[][]> {
  const vectors = await context.embeddings.embedDocuments(chunks.map(embeddingInput));
  const wrong = vectors.find((vector) => vector.length !== context.dimensions);
  if (vectors.length !== chunks.length || wrong) {
    throw new Error(
      `the embeddings model answered ${vectors.length} vectors of ${wrong?.length ?? context.dimensions} numbers ` +
        `for ${chunks.length} chunks of ${context.dimensions}`,
    );
  }
  return vectors;
}

/** A document's row and all its chunks, replaced in one transaction. */
async function writeDocument(
  engine: Engine,
  sourceId: string,
  item: Pending,
  vectors: number[][],
): Promise<void> {
  const { document, chunks } = item;
  await engine.transaction(async (tx) => {
    await saveDocument(tx, sourceId, document, item.hash, item.tags);
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
}

async function saveDocument(
  db: Queryable,
  sourceId: string,
  document: KnowledgeDocument,
  hash: string,
  tags: string[],
): Promise<void> {
  await db.query(
    `INSERT INTO knowledge_documents (source_id, document_id, uri, title, content_hash, updated_at, readers, source_version)
     VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8)
     ON CONFLICT (source_id, document_id) DO UPDATE SET
       uri = excluded.uri, title = excluded.title, content_hash = excluded.content_hash,
       updated_at = excluded.updated_at, readers = excluded.readers, source_version = excluded.source_version`,
    [
      sourceId,
      document.id,
      document.uri,
      document.title,
      hash,
      document.updatedAt ?? new Date(),
      tags,
      document.version ?? null,
    ],
  );
}

/** The source's versions of its stored documents (those a connector gave one), by document id. */
export async function documentVersions(engine: Engine, sourceId: string): Promise<Map<string, string>> {
  const rows = await engine.query<{ document_id: string; source_version: string }>(
    `SELECT document_id, source_version FROM knowledge_documents
     WHERE source_id = $1 AND source_version IS NOT NULL`,
    [sourceId],
  );
  return new Map(rows.map((row) => [row.document_id, row.source_version]));
}

/**
 * Brings documents the source says are unchanged up to date without reading them again: their link
 * and readers (a change of readers holds at once, as in upsertDocuments). Returns the ids of those
 * the store holds (one it no longer has is not made up: it is read in full on the next sync).
 */
export async function keepDocuments(
  engine: Engine,
  sourceId: string,
  kept: KeptDocument[],
): Promise<string[]> {
  const tagged = kept.map((one) => ({ ...one, tags: readerTags(one.readers, one.id) }));
  return engine.transaction(async (tx) => {
    const held: string[] = [];
    for (const one of tagged) {
      const rows = await tx.query<{ document_id: string }>(
        `UPDATE knowledge_documents SET uri = $3, readers = $4::text[]
         WHERE source_id = $1 AND document_id = $2 RETURNING document_id`,
        [sourceId, one.id, one.uri, one.tags],
      );
      if (rows.length > 0) held.push(one.id);
    }
    return held;
  });
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
