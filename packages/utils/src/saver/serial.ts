// Runs work for one key (a conversation) one after another, and work for different keys side by side.

export class SerialQueue {
  /** The last work queued per key, settled either way. */
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier work for `key` has settled; a failure does not stop the next. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, settled);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    }
  }

  /** Keys with work queued or running (for tests: an idle queue holds none). */
  get busyKeys(): number {
    return this.tails.size;
  }
}
