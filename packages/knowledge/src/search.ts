import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { Principal } from "@switchboard/agent-runtime";
import { SwitchboardError } from "@switchboard/common";
import type { Queryable } from "./engine.js";
import { vectorLiteral } from "./ingest.js";
import { principalTags } from "./readers.js";

export interface SearchQuery {
  text: string;
  /** Who asks: the principal of the verified token (agent-runtime's). Only what it may read is searched. */
  principal: Principal;
  /** How many chunks to return (default 5, at most 50). */
  k?: number;
  /** Only these sources (default: all). */
  sources?: string[];
  /** `hybrid` (default): vector and full text, fused; `keyword`: full text alone (no embedding call); `vector`: embeddings alone. */
  mode?: "hybrid" | "keyword" | "vector";
}

export interface SearchHit {
  sourceId: string;
  documentId: string;
  title: string;
  /** The link to cite. */
  uri: string;
  /** The chunk's text. */
  chunk: string;
  /** Its reciprocal-rank-fusion score (higher is better). */
  score: number;
}

/** RRF's constant (Cormack et al.): damps the weight of the very first ranks so both lists count. */
const RRF_K = 60;
const MAX_K = 50;
/** A question, not a document: longer texts are refused before they cost an embedding or a scan. */
const MAX_TEXT_LENGTH = 4_000;

/**
 * The one search query. Each half ranks its own candidates, both filtered by reader in their own
 * WHERE (`d.readers && $2`), so a chunk the principal may not read is never a candidate and never
 * leaves the database; the halves are fused by reciprocal rank. A NULL vector ($1) turns the vector
 * half off (keyword mode), a NULL text ($5) the full-text half.
 */
const SEARCH_SQL = `
WITH vector_candidates AS MATERIALIZED (
  SELECT c.id, c.embedding <=> $1::vector AS distance
  FROM knowledge_chunks c JOIN knowledge_documents d USING (source_id, document_id)
  WHERE $1::vector IS NOT NULL
    AND d.readers && $2::text[]
    AND ($3::text[] IS NULL OR c.source_id = ANY($3::text[]))
  ORDER BY distance
  LIMIT $4
),
vector_hits AS (
  SELECT id, row_number() OVER (ORDER BY distance, id) AS rank FROM vector_candidates
),
text_hits AS (
  SELECT id, row_number() OVER (ORDER BY score DESC, id) AS rank
  FROM (
    SELECT c.id, ts_rank_cd(c.tsv, q.query) AS score
    FROM knowledge_chunks c JOIN knowledge_documents d USING (source_id, document_id),
      websearch_to_tsquery('english', $5::text) AS q(query)
    WHERE c.tsv @@ q.query
      AND d.readers && $2::text[]
      AND ($3::text[] IS NULL OR c.source_id = ANY($3::text[]))
    ORDER BY score DESC, c.id
    LIMIT $4
  ) ranked
),
fused AS (
  SELECT coalesce(v.id, t.id) AS id,
    coalesce(1.0 / (${RRF_K} + v.rank), 0) + coalesce(1.0 / (${RRF_K} + t.rank), 0) AS score
  FROM vector_hits v FULL OUTER JOIN text_hits t ON v.id = t.id
)
SELECT c.source_id, c.document_id, d.title, d.uri, c.text, f.score::float8 AS score
FROM fused f
  JOIN knowledge_chunks c ON c.id = f.id
  JOIN knowledge_documents d USING (source_id, document_id)
ORDER BY f.score DESC, c.id
LIMIT $6`;

async function queryVector(
  embeddings: { model: EmbeddingsInterface; dimensions: number },
  text: string,
): Promise<string> {
  const vector = await embeddings.model.embedQuery(text);
  if (vector.length !== embeddings.dimensions) {
    throw new SwitchboardError(
      "knowledge.config",
      "user",
      `The embeddings model answered ${vector.length} numbers a vector, and the knowledge base keeps ` +
        `${embeddings.dimensions}: set its embeddings settings back as they were when it was built.`,
    );
  }
  return vectorLiteral(vector);
}

interface HitRow {
  source_id: string;
  document_id: string;
  title: string;
  uri: string;
  text: string;
  score: number;
}

/** The chunks that answer `query.text` best among those its principal may read. */
export async function search(
  db: Queryable,
  embeddings: { model: EmbeddingsInterface; dimensions: number },
  query: SearchQuery,
): Promise<SearchHit[]> {
  const k = query.k ?? 5;
  if (!Number.isInteger(k) || k < 1 || k > MAX_K) {
    throw new SwitchboardError(
      "knowledge.search",
      "user",
      `k must be a whole number from 1 to ${MAX_K}, not ${k}.`,
    );
  }
  const text = query.text.trim();
  if (text.length > MAX_TEXT_LENGTH) {
    throw new SwitchboardError(
      "knowledge.search",
      "user",
      `A search text may hold at most ${MAX_TEXT_LENGTH} characters (this one has ${text.length}): ask a shorter question.`,
    );
  }
  // Nothing to look for: no chunk answers it (and an empty text has no embedding).
  if (text === "") return [];
  const mode = query.mode ?? "hybrid";
  const vector = mode === "keyword" ? null : await queryVector(embeddings, text);
  // Each half ranks more than k, so a chunk second in both lists can rise above one first in one.
  const candidates = Math.max(4 * k, 20);
  const rows = await db.query<HitRow>(SEARCH_SQL, [
    vector,
    principalTags(query.principal),
    query.sources ?? null,
    candidates,
    mode === "vector" ? null : text,
    k,
  ]);
  return rows.map((row) => ({
    sourceId: row.source_id,
    documentId: row.document_id,
    title: row.title,
    uri: row.uri,
    chunk: row.text,
    score: Number(row.score),
  }));
}
