// The checkpointers a process has built, one per distinct settings, and which one is its default.
import {
  buildCheckpointer,
  type CheckpointerHandle,
  type CheckpointerOptions,
  resolveCheckpointer,
} from "./checkpointer-build.js";

/** Options that name no agent and no env: the caller means the process's checkpointer, whatever it is. */
function unconfigured(options: CheckpointerOptions): boolean {
  return options.env === undefined && options.agentName === undefined;
}

/**
 * Checkpointers by their resolved settings (URI, database, collections, agent, retention): a call
 * with the same settings gets the same saver and MongoDB client; other settings (another agent in
 * the same process, another database) get their own. The first one asked for is the default,
 * which callers without options get, as they did when there was only one.
 */
export class CheckpointerRegistry {
  private readonly built = new Map<string, Promise<CheckpointerHandle>>();
  private defaultKey?: string;

  async get(options: CheckpointerOptions): Promise<CheckpointerHandle> {
    const fallback = unconfigured(options) ? this.defaultHandle() : undefined;
    if (fallback) return fallback;
    const resolved = resolveCheckpointer(options);
    const existing = this.built.get(resolved.key);
    if (existing) return existing;
    const building = buildCheckpointer(resolved);
    this.built.set(resolved.key, building);
    this.defaultKey ??= resolved.key;
    // A failed build is not kept: the next call tries again (e.g. once MongoDB is up).
    building.catch(() => this.forget(resolved.key, building));
    return building;
  }

  /** The default checkpointer if one was asked for (and is not known to have failed), without building one. */
  async current(): Promise<CheckpointerHandle | undefined> {
    return this.defaultHandle()?.catch(() => undefined);
  }

  /** Closes every checkpointer and forgets them; the next call builds from the then-current settings. */
  async closeAll(): Promise<void> {
    const closing = [...this.built.values()];
    this.built.clear();
    this.defaultKey = undefined;
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

  private defaultHandle(): Promise<CheckpointerHandle> | undefined {
    return this.defaultKey === undefined ? undefined : this.built.get(this.defaultKey);
  }

  private forget(key: string, building: Promise<CheckpointerHandle>): void {
    if (this.built.get(key) !== building) return;
    this.built.delete(key);
    if (this.defaultKey === key) this.defaultKey = undefined;
  }
}
