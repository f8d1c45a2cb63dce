import type { Queryable } from "./engine.js";

/** How far a source's sync got: what it listed, embedded, left as it was, removed and could not read. */
export interface SyncProgress {
  phase: "listing" | "embedding" | "removing" | "done" | "failed";
  /** Documents the source listed so far. */
  listed: number;
  /** New or changed documents embedded and stored. */
  changed: number;
  unchanged: number;
  removed: number;
  /** Documents that could not be read or embedded (their previous version kept). */
  failed: number;
  /** Why the sync failed, or which documents failed. */
  error?: string;
}

/** A source's state as the sources page shows it: when it was last synced, what it holds, what failed. */
export interface SyncStatus {
  sourceId: string;
  /** The last sync, whether it worked or not. */
  lastSyncAt?: Date;
  /** The last sync in which nothing failed. */
  lastSuccessAt?: Date;
  /** Why the last sync failed (in part or whole); absent when it worked. */
  lastError?: string;
  /** Whether a sync of the source is under way (on any replica). */
  running: boolean;
  /** The current sync's progress, or the last one's when none runs. */
  progress?: SyncProgress;
  documents: number;
  chunks: number;
}

/**
 * A sync whose progress was not recorded for this long is not running any more (its process ended
 * mid-sync): a running sync records it at least every SYNC_HEARTBEAT_MS (sources/sync.ts).
 */
export const SYNC_STALE_SECONDS = 300;

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

/**
 * Records a sync's progress (and whether it still runs) for the sources page and every replica; the
 * source's row is made when missing, with no sync time yet.
 */
export async function recordProgress(
  db: Queryable,
  sourceId: string,
  progress: SyncProgress,
  running: boolean,
): Promise<void> {
  const kept = progress.error ? { ...progress, error: progress.error.slice(0, MAX_ERROR_LENGTH) } : progress;
  await db.query(
    `INSERT INTO knowledge_sources AS s (source_id, running, progress, progress_at) VALUES ($1, $2, $3::jsonb, now())
     ON CONFLICT (source_id) DO UPDATE SET
       running = excluded.running, progress = excluded.progress, progress_at = excluded.progress_at`,
    [sourceId, running, JSON.stringify(kept)],
  );
}

interface StatusRow {
  source_id: string;
  last_sync_at: Date | null;
  last_success_at: Date | null;
  last_error: string | null;
  running: boolean;
  progress: SyncProgress | string | null;
  documents: number;
  chunks: number;
}

/** Every source's status (or one's), counted from what the store holds now. */
export async function syncStatuses(db: Queryable, sourceId?: string): Promise<SyncStatus[]> {
  const rows = await db.query<StatusRow>(
    `SELECT s.source_id, s.last_sync_at, s.last_success_at, s.last_error, s.progress,
       (s.running AND s.progress_at > now() - make_interval(secs => ${SYNC_STALE_SECONDS})) AS running,
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
    running: row.running,
    ...(row.progress
      ? { progress: typeof row.progress === "string" ? JSON.parse(row.progress) : row.progress }
      : {}),
    documents: row.documents,
    chunks: row.chunks,
  }));
}
