import type { Collection } from "mongodb";
import { mongoUnreachable, unavailableAsError } from "./mongo-errors.js";
import {
  atRevision,
  finished,
  holdsBack,
  type JsonTask,
  type Stored,
  storedOf,
  type TaskDocument,
  taskDocument,
  turnRunning,
} from "./task-document.js";
import { mergeWritten, type TaskVersion } from "./task-merge.js";

/** A turn's progress (its start, status messages, streamed answer text) reaches MongoDB this late at most. */
export const PROGRESS_WRITE_MS = 250;
/** A write that failed because MongoDB could not be reached is tried again this much later… */
const RETRY_WRITE_MS = 1_000;
/** …this many times at most. */
const WRITE_RETRIES = 30;
const CONFLICT_RETRIES = 5;

/**
 * A task a turn in this process is running on: its newest version kept in memory (what `load`
 * hands out) and written behind to MongoDB — a change of state at once, a turn's progress at most
 * {@link PROGRESS_WRITE_MS} later. Every write is conditional on the revision last seen; a
 * write by someone else meanwhile is merged in ({@link mergeWritten}). Once MongoDB holds all of it
 * and its turn is over (or it was finished or deleted elsewhere), it is done: `onDone` is told
 * what MongoDB holds, and it writes nothing more.
 */
export class ActiveTask {
  private version: TaskVersion;
  /** The version in memory is newer than what MongoDB holds. */
  private dirty = false;
  private done = false;
  private timer: NodeJS.Timeout | undefined;
  /** Failed writes since the last one that succeeded. */
  private failures = 0;
  /** Writes of one task go out one after another. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    readonly owner: string,
    /** What MongoDB holds; undefined when this process has not read or written it. */
    private stored: Stored | undefined,
    private readonly collection: Collection<TaskDocument>,
    private readonly onDone: (task: ActiveTask, stored: Stored | undefined) => void,
  ) {
    this.version = { json: {}, state: 0 };
  }

  /** Its newest version, in the protocol's JSON form. */
  get json(): JsonTask {
    return this.version.json;
  }

  /** Takes a new version; written at once, or held back a little when it is a turn's progress. */
  async save(json: JsonTask, state: number): Promise<void> {
    this.version = { json, state };
    this.dirty = true;
    if (holdsBack(this.stored, state)) {
      this.flushLater(PROGRESS_WRITE_MS);
      return;
    }
    await this.flush();
  }

  /** Writes the newest version if MongoDB does not have it yet (after earlier writes). */
  flush(): Promise<void> {
    const next = this.writes.then(() => unavailableAsError(() => this.write()));
    this.writes = next.catch(() => undefined);
    return next;
  }

  private flushLater(ms: number): void {
    this.timer ??= setTimeout(() => void this.flush().catch(() => undefined), ms);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // Done (its turn ended, or it was finished or deleted elsewhere): nothing left to write.
    if (!this.dirty || this.done) return;
    this.dirty = false;
    let version = this.version;
    try {
      for (let attempt = 0; !(await this.writeOnce(version)); attempt++) {
        // Someone else wrote the task since this process last saw it in `believed` state.
        const believed = this.stored?.state;
        const current = await this.collection.findOne({ _id: this.id });
        this.stored = storedOf(current);
        if (!current || finished(current.state)) {
          // Deleted or finished meanwhile: it stays so (the SDK, reading it first, drops the update).
          this.finish();
          return;
        }
        if (attempt >= CONFLICT_RETRIES)
          throw new Error(`task ${this.id} keeps changing under concurrent writes`);
        version = mergeWritten(version, current, believed);
        // A newer version saved meanwhile gets their changes too.
        this.version = this.dirty ? mergeWritten(this.version, current, believed) : version;
      }
    } catch (error) {
      // Kept, and tried again: the newest version reaches MongoDB once it is back.
      this.dirty = true;
      if (mongoUnreachable(error) && ++this.failures <= WRITE_RETRIES) this.flushLater(RETRY_WRITE_MS);
      throw error;
    }
    this.failures = 0;
    // Its turn is over: MongoDB holds it all, and the next turn may run on another replica.
    if (!this.dirty && !turnRunning(version.state)) this.finish();
  }

  /** One conditional write: false when the document is not at the revision last seen. */
  private async writeOnce({ json, state }: TaskVersion): Promise<boolean> {
    const rev = (this.stored?.rev ?? 0) + 1;
    const document = taskDocument(this.id, this.owner, json, state, rev);
    if (!this.stored) {
      try {
        await this.collection.insertOne(document);
      } catch (error) {
        if ((error as { code?: number }).code === 11000) return false;
        throw error;
      }
    } else {
      const result = await this.collection.replaceOne(atRevision(this.id, this.stored.rev), document);
      if (result.matchedCount === 0) return false;
    }
    this.stored = { rev, state };
    return true;
  }

  private finish(): void {
    clearTimeout(this.timer);
    this.done = true;
    this.onDone(this, this.stored);
  }
}
