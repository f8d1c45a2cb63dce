/**
 * The knowledge base's one schema, the same on PostgreSQL + pgvector and on PGlite. Idempotent: run at
 * every open. `dimensions` is the embeddings model's vector length, fixed when the tables are made
 * (an HNSW index needs it); `knowledge_meta` keeps which model that was, so a changed model is named
 * at open instead of failing at the first insert.
 *
 * Who may read a document is `readers` (see readers.ts): the filter of every search half is
 * `readers && <the principal's reader tags>` in its WHERE, over the GIN index below.
 */
export function schemaSql(dimensions: number): string {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16_000) {
    throw new Error(`An embeddings vector length must be a whole number from 1 to 16000, not ${dimensions}.`);
  }
  return `
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE IF NOT EXISTS knowledge_meta (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  embeddings_model text NOT NULL,
  dimensions integer NOT NULL
);

CREATE TABLE IF NOT EXISTS knowledge_documents (
  source_id text NOT NULL,
  document_id text NOT NULL,
  uri text NOT NULL,
  title text NOT NULL,
  content_hash text NOT NULL,
  updated_at timestamptz NOT NULL,
  readers text[] NOT NULL,
  PRIMARY KEY (source_id, document_id)
);
CREATE INDEX IF NOT EXISTS knowledge_documents_readers ON knowledge_documents USING gin (readers);

CREATE TABLE IF NOT EXISTS knowledge_chunks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source_id text NOT NULL,
  document_id text NOT NULL,
  ordinal integer NOT NULL,
  heading text NOT NULL,
  text text NOT NULL,
  embedding vector(${dimensions}) NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', heading), 'A') || setweight(to_tsvector('english', text), 'B')
  ) STORED,
  FOREIGN KEY (source_id, document_id) REFERENCES knowledge_documents ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS knowledge_chunks_document ON knowledge_chunks (source_id, document_id);
CREATE INDEX IF NOT EXISTS knowledge_chunks_embedding ON knowledge_chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX IF NOT EXISTS knowledge_chunks_tsv ON knowledge_chunks USING gin (tsv);

CREATE TABLE IF NOT EXISTS knowledge_sources (
  source_id text PRIMARY KEY,
  last_sync_at timestamptz,
  last_success_at timestamptz,
  last_error text
);
-- A sync under way and how far it got (sources/sync.ts), kept here so every replica and the sources
-- page see it. Added after the table's first release, so also to tables made before.
ALTER TABLE knowledge_sources ADD COLUMN IF NOT EXISTS running boolean NOT NULL DEFAULT false;
ALTER TABLE knowledge_sources ADD COLUMN IF NOT EXISTS progress jsonb;
ALTER TABLE knowledge_sources ADD COLUMN IF NOT EXISTS progress_at timestamptz;
-- The source's own version of a document (a blob SHA), so a sync need not read an unchanged one again.
ALTER TABLE knowledge_documents ADD COLUMN IF NOT EXISTS source_version text;
`;
}
