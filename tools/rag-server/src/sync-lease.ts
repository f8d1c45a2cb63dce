import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Engine } from "@switchboard/knowledge";

/**
 * One sync of a source at a time across replicas, by a row of the knowledge store's own database
 * (PostgreSQL or PGlite alike): a lease with an expiry, renewed while the sync runs, so a replica
 * that dies mid-sync holds nothing for long. A scheduled sync also names its due instant (`slot`):
 * a slot already run is not claimed again, so every replica arming the same schedule syncs it once.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS knowledge_sync_leases (
  source_id text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL,
  last_slot timestamptz
)`;

const CLAIM = `
INSERT INTO knowledge_sync_leases AS l (source_id, holder, expires_at, last_slot)
VALUES ($1, $2, now() + make_interval(secs => $3::float8 / 1000), $4::timestamptz)
ON CONFLICT (source_id) DO UPDATE SET
  holder = excluded.holder,
  expires_at = excluded.expires_at,
  last_slot = coalesce(excluded.last_slot, l.last_slot)
WHERE l.expires_at < now()
  AND ($4::timestamptz IS NULL OR l.last_slot IS NULL OR l.last_slot < $4::timestamptz)
RETURNING holder`;

export class SyncLeases {
  /** This replica's name on the leases it holds. */
  readonly holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  private constructor(
    private readonly engine: Engine,
    readonly ttlMs: number,
  ) {}

  static async open(engine: Engine, ttlMs: number): Promise<SyncLeases> {
    // Two replicas starting at once make the table once (the store's schema lock's way).
    await engine.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('switchboard.knowledge.sync-leases'))");
      await tx.exec(SCHEMA);
    });
    return new SyncLeases(engine, ttlMs);
  }

  /** Takes the source's lease unless another holds it (or, for a scheduled sync, its slot already ran). */
  async claim(sourceId: string, slot?: Date): Promise<boolean> {
    const rows = await this.engine.query(CLAIM, [
      sourceId,
      this.holder,
      this.ttlMs,
      slot?.toISOString() ?? null,
    ]);
    return rows.length > 0;
  }

  /** Extends a held lease; false when it was lost (expired and taken): the sync must stop. */
  async renew(sourceId: string): Promise<boolean> {
    const rows = await this.engine.query(
      `UPDATE knowledge_sync_leases SET expires_at = now() + make_interval(secs => $3::float8 / 1000)
       WHERE source_id = $1 AND holder = $2 RETURNING holder`,
      [sourceId, this.holder, this.ttlMs],
    );
    return rows.length > 0;
  }

  /** Lets the source go (its slot stays recorded). */
  async release(sourceId: string): Promise<void> {
    await this.engine.query(
      `UPDATE knowledge_sync_leases SET expires_at = '-infinity' WHERE source_id = $1 AND holder = $2`,
      [sourceId, this.holder],
    );
  }
}
