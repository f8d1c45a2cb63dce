import type { Stored } from "./task-document.js";

/**
 * What MongoDB held of tasks no turn here is writing, when last read (for their next write), or
 * "new" for a task about to be created; the oldest entries are forgotten beyond `limit`.
 */
export class KnownRevisions {
  private readonly entries = new Map<string, Stored | "new">();

  constructor(private readonly limit: number) {}

  get(id: string): Stored | "new" | undefined {
    return this.entries.get(id);
  }

  /** Remembers (as the newest) what MongoDB holds of the task. */
  remember(id: string, stored: Stored | "new"): void {
    this.entries.delete(id);
    this.entries.set(id, stored);
    if (this.entries.size > this.limit) {
      const [oldest] = this.entries.keys();
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Takes the task's entry out: its writes are tracked elsewhere from now on. */
  take(id: string): Stored | "new" | undefined {
    const stored = this.entries.get(id);
    this.entries.delete(id);
    return stored;
  }
}
