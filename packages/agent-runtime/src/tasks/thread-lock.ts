import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { type Logger, SwitchboardError } from "@switchboard/common";
import { collectionsFor } from "@switchboard/contract";
import type { Collection, Db } from "mongodb";

/** What a second message on a busy conversation does: wait its turn (bounded), or be refused. */
export type ConcurrentTurnPolicy = "enqueue" | "reject";

export interface LockSettings {
  policy: ConcurrentTurnPolicy;
  /** How long a lease lasts without renewal: a crashed holder's thread is free again after this. */
  leaseMs: number;
  /** How long an enqueued message waits for the conversation before giving up. */
  waitMs: number;
}

export interface Lease {
  release(): Promise<void>;
}

/** One turn at a time per conversation thread, across every replica of the agent. */
export interface ThreadLocks {
  acquire(threadId: string, signal: AbortSignal): Promise<Lease>;
  /**
   * A deleted conversation's part: any lease on its thread is dropped (one a crashed replica left
   * behind would otherwise hold the thread until it expired).
   */
  forget(threadId: string): Promise<void>;
}

const POLL_MS = 100;

function busy(settings: LockSettings, waited: boolean): SwitchboardError {
  return new SwitchboardError(
    "turn.busy",
    "user",
    waited
      ? `This conversation is still busy with an earlier message after ${Math.round(settings.waitMs / 1000)} s; send this one again when it finishes.`
      : "This conversation is busy answering another message; send this one when it finishes (CONCURRENT_TURN_POLICY=reject).",
  );
}

interface LockDocument {
  _id: string;
  owner: string;
  expiresAt: Date;
}

/**
 * Per-thread leases in `locks_<agent>`: a document per busy thread, taken by insert (or by
 * replacing one whose lease expired), renewed while the turn runs, deleted when it ends.
 * Expiry is checked on acquire, so it does not depend on MongoDB's TTL monitor.
 */
export class MongoThreadLocks implements ThreadLocks {
  private constructor(
    private readonly collection: Collection<LockDocument>,
    private readonly settings: LockSettings,
    private readonly logger: Logger,
  ) {}

  static async create(
    db: Db,
    agent: string,
    settings: LockSettings,
    logger: Logger,
  ): Promise<MongoThreadLocks> {
    const collection = db.collection<LockDocument>(collectionsFor(agent).locks);
    // Housekeeping only: leases that expired long ago disappear on a real MongoDB.
    await collection.createIndex({ expiresAt: 1 }, { expireAfterSeconds: 3600, name: "expired_leases" });
    return new MongoThreadLocks(collection, settings, logger);
  }

  async acquire(threadId: string, signal: AbortSignal): Promise<Lease> {
    const owner = `${hostname()}:${process.pid}:${randomUUID()}`;
    const deadline = Date.now() + this.settings.waitMs;
    while (!(await this.tryTake(threadId, owner))) {
      if (this.settings.policy === "reject") throw busy(this.settings, false);
      if (Date.now() > deadline) throw busy(this.settings, true);
      await sleep(POLL_MS, undefined, { signal });
    }
    const renew = setInterval(() => void this.renew(threadId, owner), this.settings.leaseMs / 3);
    renew.unref();
    return {
      release: async () => {
        clearInterval(renew);
        await this.collection.deleteOne({ _id: threadId, owner });
      },
    };
  }

  async forget(threadId: string): Promise<void> {
    await this.collection.deleteOne({ _id: threadId });
  }

  /** When the lease on a thread runs out, if anyone holds one. */
  async leaseExpiry(threadId: string): Promise<Date | undefined> {
    return (await this.collection.findOne({ _id: threadId }))?.expiresAt;
  }

  private async tryTake(threadId: string, owner: string): Promise<boolean> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.settings.leaseMs);
    try {
      await this.collection.insertOne({ _id: threadId, owner, expiresAt });
      return true;
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
    const taken = await this.collection.updateOne(
      { _id: threadId, expiresAt: { $lt: now } },
      { $set: { owner, expiresAt } },
    );
    return taken.modifiedCount === 1;
  }

  private async renew(threadId: string, owner: string): Promise<void> {
    const expiresAt = new Date(Date.now() + this.settings.leaseMs);
    const renewed = await this.collection
      .updateOne({ _id: threadId, owner }, { $set: { expiresAt } })
      .catch(() => undefined);
    if (renewed?.modifiedCount === 0)
      this.logger.warn({ threadId }, "lost the lease on a conversation thread mid-turn");
  }
}

/** The same rule within one process, for the memory backend. */
export class MemoryThreadLocks implements ThreadLocks {
  private readonly held = new Map<string, Promise<void>>();

  constructor(private readonly settings: LockSettings) {}

  async acquire(threadId: string, signal: AbortSignal): Promise<Lease> {
    const deadline = Date.now() + this.settings.waitMs;
    for (let current = this.held.get(threadId); current; current = this.held.get(threadId)) {
      if (this.settings.policy === "reject") throw busy(this.settings, false);
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw busy(this.settings, true);
      await Promise.race([current, sleep(remaining, undefined, { signal })]);
    }
    let release = () => {};
    const lease = new Promise<void>((resolve) => (release = resolve));
    this.held.set(threadId, lease);
    return {
      release: async () => {
        // Only its own: the thread may have been forgotten and taken by another turn since.
        if (this.held.get(threadId) === lease) this.held.delete(threadId);
        release();
      },
    };
  }

  async forget(threadId: string): Promise<void> {
    this.held.delete(threadId);
  }
}
