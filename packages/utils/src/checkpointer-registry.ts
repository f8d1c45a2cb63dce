// The checkpointers getCheckpointer() has built, one per distinct settings.
import { buildCheckpointer, type CheckpointerOptions, resolveCheckpointer } from "./checkpointer-build.js";
import type { CheckpointerHandle } from "./checkpointer-handle.js";

/**
 * Checkpointers by their resolved settings (URI, database, collections, agent, retention): a call
 * with the same settings gets the same saver and MongoDB client; other settings (another agent in
 * the same process, another database) get their own. A call without options means the process's
 * own agent by process.env, as the contract says; nothing here is anyone's default.
 */
export class CheckpointerRegistry {
  private readonly built = new Map<string, Promise<CheckpointerHandle>>();

  async get(options: CheckpointerOptions): Promise<CheckpointerHandle> {
    const resolved = resolveCheckpointer(options);
    const existing = this.built.get(resolved.key);
    if (existing) return existing;
    const building = buildCheckpointer(resolved);
    this.built.set(resolved.key, building);
    // A failed build is not kept: the next call tries again (e.g. once MongoDB is up).
    building.catch(() => this.forget(resolved.key, building));
    return building;
  }

  /** Closes every checkpointer and forgets them; the next call builds from the then-current settings. */
  async closeAll(): Promise<void> {
    const closing = [...this.built.values()];
    this.built.clear();
    await Promise.all(
      closing.map(async (building) => {
        const handle = await building.catch(() => undefined);
        await handle?.close();
      }),
    );
  }

  /** Closes the checkpointer these options name, if one was built; the others stay open. */
  async close(options: CheckpointerOptions): Promise<void> {
    const { key } = resolveCheckpointer(options);
    const building = this.built.get(key);
    if (!building) return;
    this.forget(key, building);
    const handle = await building.catch(() => undefined);
    await handle?.close();
  }

  private forget(key: string, building: Promise<CheckpointerHandle>): void {
    if (this.built.get(key) === building) this.built.delete(key);
  }
}
