import type { Queryable } from "./engine.js";

/** A source's state as the sources page shows it: when it was last synced, what it holds, what failed. */
export interface SyncStatus {
  sourceId: string;
  /** The last sync, whether it worked or not. */
  lastSyncAt?: Date;
  /** The last sync in which nothing failed. */
  lastSuccessAt?: Date;
  /** Why the last sync failed (in part or whole); absent when it worked. */
  lastError?: string;
  documents: number;
  chunks: number;
}

/** The longest error kept: enough for the vendor's message, not a page of HTML an error page sent. */
const MAX_ERROR_LENGTH = 1_000;

/** Records a sync of `sourceId` that ended now: failed with `error`, or worked (clearing the last error). */
export async function recordSync(db: Queryable, sourceId: string, error?: string): Promise<void> {
  await db.query(
    `INSERT INTO knowledge_sources AS s (source_id, last_sync_at, last_success_at, last_error)
     VALUES ($1, now(), CASE WHEN $2::text IS NULL THEN now() END, $2::text)
     ON CONFLICT (source_id) DO UPDATE SET
       last_sync_at = excluded.last_sync_at,
       last_success_at = coalesce(excluded.last_success_at, s.last_success_at),
       last_error = excluded.last_error`,
    [sourceId, error === undefined ? null : error.slice(0, MAX_ERROR_LENGTH)],
  );
}

interface StatusRow {
  source_id: string;
  last_sync_at: Date | null;
  last_success_at: Date | null;
  last_error: string | null;
  documents: number;
  chunks: number;
}

/** Every source's status (or one's), counted from what the store holds now. */
export async function syncStatuses(db: Queryable, sourceId?: string): Promise<SyncStatus[]> {
  const rows = await db.query<StatusRow>(
    `SELECT s.source_id, s.last_sync_at, s.last_success_at, s.last_error,
       (SELECT count(*)::int FROM knowledge_documents d WHERE d.source_id = s.source_id) AS documents,
       (SELECT count(*)::int FROM knowledge_chunks c WHERE c.source_id = s.source_id) AS chunks
     FROM knowledge_sources s
     WHERE $1::text IS NULL OR s.source_id = $1::text
     ORDER BY s.source_id`,
    [sourceId ?? null],
  );
  return rows.map((row) => ({
    sourceId: row.source_id,
    ...(row.last_sync_at ? { lastSyncAt: row.last_sync_at } : {}),
    ...(row.last_success_at ? { lastSuccessAt: row.last_success_at } : {}),
    ...(row.last_error ? { lastError: row.last_error } : {}),
    documents: row.documents,
    chunks: row.chunks,
  }));
}
