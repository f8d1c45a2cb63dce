import type { Logger } from "@switchboard/common";
import { type KnowledgeStore, type SourceDefinition, syncSource } from "@switchboard/knowledge";
import { Cron } from "croner";
import type { SyncLeases } from "./sync-lease.js";

export interface SyncerDeps {
  store: KnowledgeStore;
  leases: SyncLeases;
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

/**
 * Runs the sources' syncs: on their schedules (croner, in each source's time zone) and on demand,
 * each under the source's lease (sync-lease.ts), so one replica syncs a source at a time and a
 * schedule's tick runs once across replicas. A sync's progress and outcome are the store's
 * (syncSource persists them), so every replica's list shows them.
 */
export class Syncer {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly deps: SyncerDeps) {}

  /** Arms every source's schedule (a source without one syncs on demand only). */
  start(sources: SourceDefinition[]): void {
    for (const source of sources) {
      if (!source.schedule) continue;
      const cron = new Cron(source.schedule, {
        ...(source.timezone ? { timezone: source.timezone } : {}),
        paused: true,
      });
      this.arm(source, cron, new Date());
    }
  }

  /** Starts a sync now unless one of the source runs somewhere: `started`, or `running` (elsewhere or here). */
  async syncNow(source: SourceDefinition): Promise<"started" | "running"> {
    if (this.running.has(source.id) || !(await this.deps.leases.claim(source.id))) return "running";
    this.run(source);
    return "started";
  }

  /** Stops the schedules and the running syncs (each stops at its next step), and waits for them. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.stopping.abort();
    await Promise.allSettled(this.running.values());
  }

  /** The running syncs, for a test or a drain to wait on. */
  idle(): Promise<void> {
    return Promise.allSettled(this.running.values()).then(() => {});
  }

  private arm(source: SourceDefinition, cron: Cron, after: Date): void {
    const next = cron.nextRun(after);
    if (!next || this.stopping.signal.aborted) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        // The next tick first, from this one's due instant: a slow claim skips none.
        this.arm(source, cron, next);
        void this.tick(source, next);
      },
      Math.max(0, next.getTime() - Date.now()),
    );
    timer.unref();
    this.timers.add(timer);
  }

  /** A due tick: the replica that claims its slot syncs; the others see it taken and do nothing. */
  private async tick(source: SourceDefinition, slot: Date): Promise<void> {
    try {
      if (this.running.has(source.id) || !(await this.deps.leases.claim(source.id, slot))) return;
      this.run(source, slot);
    } catch (error) {
      this.deps.logger.error({ err: error, source: source.id }, "A scheduled sync could not be claimed");
    }
  }

  /** Runs a claimed sync (a schedule's `slot`, or on demand) in the background, renewing its lease; a lost lease stops it. */
  private run(source: SourceDefinition, slot?: Date): void {
    const { store, leases, env, logger } = this.deps;
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, this.stopping.signal]);
    const renewal = setInterval(() => {
      leases
        .renew(source.id)
        .then((held) => {
          if (!held) abort.abort(new Error("another replica took this source's sync over"));
        })
        .catch((error: unknown) =>
          logger.warn({ err: error, source: source.id }, "could not renew a sync's lease"),
        );
    }, leases.ttlMs / 3);
    renewal.unref();
    const log = logger.child({ source: source.id });
    const work = (async () => {
      log.info({ type: source.type, ...(slot ? { slot: slot.toISOString() } : {}) }, "Sync started");
      try {
        const done = await syncSource(store, source, { env, logger: log, signal });
        log.info({ ...done }, done.phase === "failed" ? "Sync failed" : "Sync finished");
      } catch (error) {
        // syncSource records what it can; a throw past it is recorded here, so the list shows it.
        log.error({ err: error }, "Sync failed");
        await store.recordSyncError(source.id, error).catch(() => {});
      } finally {
        clearInterval(renewal);
        this.running.delete(source.id);
        await leases.release(source.id).catch(() => {});
      }
    })();
    this.running.set(source.id, work);
  }
}
