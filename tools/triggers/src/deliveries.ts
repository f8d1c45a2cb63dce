import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Spend } from "@switchboard/agent-runtime/turn/budget";
import { type Collection, type Db, MongoServerError } from "mongodb";
import type { Destination } from "./config.js";

/**
 * What became of a delivery's run. `input-required`: a change it asked for waits for an approver the
 * agent's policy names; `declined` and `expired`: that change was not made.
 */
export type RunStatus = "running" | "success" | "failed" | "input-required" | "declined" | "expired";

/** A change a run waits on: the agent's task that asked, and until when an approver may answer. */
export interface WaitingChange {
  /** The agent's task and conversation: the decision continues them. */
  taskId: string;
  contextId: string;
  /** The change as the agent shows it, and the hashes of its arguments a decision is bound to. */
  question: string;
  argsHashes?: string[];
  askedAt: Date;
  /** CONFIRMATION_EXPIRY_SECONDS after it was asked: later, nothing is done. */
  expiresAt: Date;
  /** Who answered (the verified subject) and how, once someone did. */
  decidedBy?: string;
  decision?: "approve" | "decline";
}

/** One delivery of one task, and its run: CAIPE's trigger_instances row. */
export interface DeliveryRecord {
  /** `<task id>:<delivery id>`: unique, so a retry or another replica's copy cannot be inserted twice. */
  _id: string;
  taskId: string;
  deliveryId: string;
  runId: string;
  status: RunStatus;
  /** The replica running it (host and process), for the run history and a stuck run's report. */
  owner: string;
  receivedAt: Date;
  /** Until when the owner holds the run: renewed while it runs; past it, the run is reported lost. */
  leaseUntil: Date;
  finishedAt?: Date;
  /** Where the answer went (the Slack thread), once it did. */
  thread?: { channel: string; ts: string };
  error?: string;
  /** Where its answer goes, targets filled from the payload (a Jira key, an incident), set when it starts. */
  destinations?: Destination[];
  /** What its turns spent on the model, their subagents' included, as the agent reported it (charged as a hop's). */
  spend?: Spend;
  /** The change the run waits on (status `input-required`), or waited on. */
  confirmation?: WaitingChange;
  /** When MongoDB drops the record (TRIGGER_INSTANCE_TTL_DAYS after it arrived). */
  expiresAt: Date;
}

export type Claim = { fresh: true; runId: string } | { fresh: false; runId: string; status: RunStatus };

/** The deliveries a task has had, in MongoDB: one insert decides which replica runs one. */
export class Deliveries {
  private readonly owner = `${hostname()}:${process.pid}`;

  private constructor(
    private readonly collection: Collection<DeliveryRecord>,
    private readonly ttlMs: number,
    /** How long a run's lease lasts without renewal. */
    readonly leaseMs: number,
  ) {}

  static async open(db: Db, ttlDays: number, leaseMs: number): Promise<Deliveries> {
    const collection = db.collection<DeliveryRecord>("trigger_instances");
    await collection.createIndexes([
      { key: { expiresAt: 1 }, expireAfterSeconds: 0, name: "expiry" },
      { key: { taskId: 1, receivedAt: -1 }, name: "by_task" },
      { key: { status: 1, leaseUntil: 1 }, name: "leases" },
      { key: { status: 1, "confirmation.expiresAt": 1 }, name: "waiting" },
      { key: { runId: 1 }, name: "by_run", unique: true },
      { key: { receivedAt: -1 }, name: "newest" },
    ]);
    return new Deliveries(collection, ttlDays * 86_400_000, leaseMs);
  }

  /**
   * Claims a delivery for this replica: the first insert of its key wins; a sender's retry, a replayed
   * request or another replica's copy finds the key taken and gets the first run's id.
   */
  async claim(taskId: string, deliveryId: string): Promise<Claim> {
    const now = new Date();
    const record: DeliveryRecord = {
      _id: `${taskId}:${deliveryId}`,
      taskId,
      deliveryId,
      runId: randomUUID(),
      status: "running",
      owner: this.owner,
      receivedAt: now,
      leaseUntil: new Date(now.getTime() + this.leaseMs),
      expiresAt: new Date(now.getTime() + this.ttlMs),
    };
    try {
      await this.collection.insertOne(record);
      return { fresh: true, runId: record.runId };
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
      const first = await this.collection.findOne({ _id: record._id });
      return { fresh: false, runId: first?.runId ?? "unknown", status: first?.status ?? "running" };
    }
  }

  /** Keeps this replica's hold on a run it is still running. */
  async renew(runId: string): Promise<void> {
    await this.collection.updateOne(
      { runId, status: "running", owner: this.owner },
      { $set: { leaseUntil: new Date(Date.now() + this.leaseMs) } },
    );
  }

  /**
   * Takes one run whose replica stopped renewing it (it died mid-run) and marks it failed, with one
   * conditional update so exactly one replica reports it. It is not run again: its agent may already
   * have acted, and a second run could do the change twice.
   */
  async takeAbandoned(): Promise<DeliveryRecord | null> {
    return this.collection.findOneAndUpdate(
      { status: "running", leaseUntil: { $lt: new Date() } },
      {
        $set: {
          status: "failed",
          finishedAt: new Date(),
          error:
            "Its receiver stopped before the run finished; it was not run again, so nothing was done twice.",
        },
      },
      { returnDocument: "after" },
    );
  }

  /** The run now waits for an approver's answer to `change`; it holds no lease while it waits. */
  async wait(runId: string, change: WaitingChange, spend?: Spend): Promise<void> {
    await this.collection.updateOne(
      { runId, status: "running", owner: this.owner },
      { $set: { status: "input-required", confirmation: change }, ...spent(spend) },
    );
  }

  /**
   * Takes a waiting run for an approver's decision, with one conditional update: only while it waits
   * and before it expires, so two presses (or two replicas) cannot both continue it. The run is held
   * again (a lease) while the agent goes on. Null: nothing waits (see `get` for why).
   */
  takeDecision(
    runId: string,
    decision: "approve" | "decline",
    decidedBy: string,
  ): Promise<DeliveryRecord | null> {
    const now = new Date();
    return this.collection.findOneAndUpdate(
      { runId, status: "input-required", "confirmation.expiresAt": { $gt: now } },
      {
        $set: {
          status: "running",
          owner: this.owner,
          leaseUntil: new Date(now.getTime() + this.leaseMs),
          "confirmation.decision": decision,
          "confirmation.decidedBy": decidedBy,
        },
      },
      { returnDocument: "after" },
    );
  }

  /** An answer that did not count (the agent's policy refused the approver): the run waits again. */
  async waitAgain(runId: string): Promise<void> {
    await this.collection.updateOne(
      { runId, status: "running", owner: this.owner },
      {
        $set: { status: "input-required" },
        $unset: { "confirmation.decision": "", "confirmation.decidedBy": "" },
      },
    );
  }

  /**
   * Takes one waiting run whose change expired unanswered and marks it expired, with one conditional
   * update so exactly one replica reports it. The agent is told nothing: its change waits there, and
   * it refuses an answer after the same expiry, so nothing can run it now.
   */
  takeExpired(): Promise<DeliveryRecord | null> {
    return this.collection.findOneAndUpdate(
      { status: "input-required", "confirmation.expiresAt": { $lte: new Date() } },
      {
        $set: {
          status: "expired",
          finishedAt: new Date(),
          error:
            "Nobody the policy names answered its change before it expired (CONFIRMATION_EXPIRY_SECONDS); nothing was done.",
        },
      },
      { returnDocument: "after" },
    );
  }

  /** How many runs wait for an approver, across every replica. */
  waiting(): Promise<number> {
    return this.collection.countDocuments({ status: "input-required" });
  }

  get(runId: string): Promise<DeliveryRecord | null> {
    return this.collection.findOne({ runId });
  }

  async threadOf(runId: string, thread: { channel: string; ts: string }): Promise<void> {
    await this.collection.updateOne({ runId }, { $set: { thread } });
  }

  async destinationsOf(runId: string, destinations: Destination[]): Promise<void> {
    await this.collection.updateOne({ runId }, { $set: { destinations } });
  }

  async finish(
    runId: string,
    status: Exclude<RunStatus, "running">,
    error?: string,
    spend?: Spend,
  ): Promise<void> {
    // Only a run still held: one already reported lost stays reported.
    await this.collection.updateOne(
      { runId, status: "running" },
      { $set: { status, finishedAt: new Date(), ...(error ? { error } : {}) }, ...spent(spend) },
    );
  }

  /** A task's newest runs (every task's without one), for the run history. */
  recent(taskId?: string, limit = 50): Promise<DeliveryRecord[]> {
    return this.collection
      .find(taskId ? { taskId } : {})
      .sort({ receivedAt: -1 })
      .limit(limit)
      .toArray();
  }
}

/** A turn's spend added to its run's (a run that waits for a decision has two turns). */
function spent(spend: Spend | undefined): { $inc?: Record<string, number> } {
  return spend ? { $inc: { "spend.modelCalls": spend.modelCalls, "spend.tokens": spend.tokens } } : {};
}
