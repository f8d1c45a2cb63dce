import { type Logger, SwitchboardError } from "@switchboard/common";
import { errorText, type KnowledgeDocument } from "../ingest.js";
import { readIngestSettings } from "../settings.js";
import type { KnowledgeStore } from "../store.js";
import type { SyncProgress } from "../sync-status.js";
import { backstage } from "./backstage.js";
import { confluence } from "./confluence.js";
import type { Connector, Listing, SourceConnectors } from "./connector.js";
import type { SourceDefinition } from "./definition.js";
import { github } from "./github.js";
import { web } from "./web.js";

export interface SyncDeps {
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** How vendors are reached (default: the global fetch). Web pages always go through the network guard. */
  fetch?: typeof fetch;
  /** Ends the sync: it is recorded as failed ("cancelled"), and nothing is removed. */
  signal?: AbortSignal;
  onProgress?: (progress: SyncProgress) => void;
}

/** Uploads have no listing: their documents come one by one (upload.ts) and a sync leaves them as they are. */
const nothingToList: Connector<SourceDefinition> = async () => ({ documents: [], failed: [] });

const CONNECTORS: SourceConnectors = { confluence, github, backstage, web, upload: nothingToList };

/** How often a running sync records its progress even when it has not moved (a long listing): under SYNC_STALE_SECONDS. */
const SYNC_HEARTBEAT_MS = 30_000;

/** Documents handed to the store at once: progress is reported (and persisted) after each batch. */
const BATCH = 64;
/**
 * The most documents one source may list: past it the sync fails, naming the fix, instead of filling
 * the memory (a source far too wide, or a vendor whose pages never end).
 */
export const MAX_LISTED = 200_000;

/** How often, in documents listed, the listing's progress is persisted (each one is still reported). */
const LISTING_PERSIST_EVERY = 100;

/**
 * Syncs one source into the store, incrementally: the source is listed whole; new and changed
 * documents are embedded, unchanged ones are not, and documents the source no longer has are removed,
 * only after the whole listing was read. A document that could not be read or embedded keeps its
 * previous version and is named in the result's error and the source's sync status. A source that
 * cannot be listed (unreachable, refused credential, bad answer) is recorded as failed, not skipped,
 * and keeps every document it had. Progress is reported to `onProgress` and persisted with the
 * source's status (`running`, `progress`), so every replica and the sources page see it.
 *
 * Resolves with the final progress; it does not throw for a failed source (the status holds why).
 */
export async function syncSource(
  store: KnowledgeStore,
  source: SourceDefinition,
  deps: SyncDeps,
): Promise<SyncProgress> {
  const progress: SyncProgress = {
    phase: "listing",
    listed: 0,
    changed: 0,
    unchanged: 0,
    removed: 0,
    failed: 0,
  };
  const report = async (running: boolean) => {
    const snapshot = { ...progress };
    deps.onProgress?.(snapshot);
    await store.recordProgress(source.id, snapshot, running);
  };
  const log = deps.logger.child({ source: source.id, type: source.type });
  await report(true);
  let beat: Promise<void> = Promise.resolve();
  const heartbeat = setInterval(() => {
    beat = store.recordProgress(source.id, { ...progress }, true).catch(() => {});
  }, SYNC_HEARTBEAT_MS);
  heartbeat.unref();
  /** Stops the heartbeat before the last record, so no late beat marks the source running again. */
  const lastBeat = async () => {
    clearInterval(heartbeat);
    await beat;
  };
  try {
    const settings = readIngestSettings(deps.env);
    let sincePersist = 0;
    const stored = await store.documentVersions(source.id);
    const listing: Listing = await CONNECTORS[source.type]({
      source: source as never,
      env: deps.env,
      logger: log,
      http: {
        fetch: deps.fetch ?? fetch,
        ...(deps.signal ? { signal: deps.signal } : {}),
        maxBytes: settings.maxBytes,
      },
      settings,
      stored,
      listed: (count) => {
        progress.listed += count;
        if (progress.listed > MAX_LISTED) {
          throw new SwitchboardError(
            "knowledge.source.too_many",
            "user",
            `Source "${source.id}" lists more than ${MAX_LISTED} documents: split it into narrower sources ` +
              "(fewer spaces, a repository's paths, a catalog filter, a smaller sitemap).",
          );
        }
        sincePersist += count;
        deps.onProgress?.({ ...progress });
        if (sincePersist >= LISTING_PERSIST_EVERY) {
          sincePersist = 0;
          beat = store.recordProgress(source.id, { ...progress }, true).catch(() => {});
        }
      },
    });
    deps.signal?.throwIfAborted();
    const failures = [...listing.failed];
    progress.failed = failures.length;
    progress.phase = "embedding";
    const kept = await store.keepDocuments(source.id, listing.unchanged ?? []);
    progress.unchanged += kept.length;
    await report(true);

    for (let at = 0; at < listing.documents.length; at += BATCH) {
      deps.signal?.throwIfAborted();
      const batch: KnowledgeDocument[] = listing.documents.slice(at, at + BATCH);
      const result = await store.upsertDocuments(source.id, batch, { recordSync: false });
      progress.changed += result.added.length + result.changed.length;
      progress.unchanged += result.unchanged.length;
      failures.push(...result.failed);
      progress.failed = failures.length;
      await report(true);
    }

    if (source.type !== "upload") {
      deps.signal?.throwIfAborted();
      progress.phase = "removing";
      await report(true);
      // What could not be read this time is kept: it is still in the source, only unread.
      const keep = [
        ...listing.documents.map((one) => one.id),
        ...listing.failed.map((one) => one.id),
        ...kept,
      ];
      progress.removed = (await store.removeMissing(source.id, keep)).length;
    }

    const error =
      failures.length === 0
        ? undefined
        : `${failures.length} of ${progress.listed} documents failed; ` +
          failures.map((one) => `"${one.id}": ${one.error}`).join("; ");
    progress.phase = "done";
    if (error) progress.error = error;
    await lastBeat();
    await store.recordSync(source.id, error);
    await report(false);
    log.info({ ...progress, error: undefined }, "knowledge source synced");
    return { ...progress };
  } catch (error) {
    progress.phase = "failed";
    progress.error = deps.signal?.aborted ? "the sync was cancelled" : errorText(error);
    await lastBeat();
    await store.recordSync(source.id, progress.error);
    await report(false);
    log.warn({ error: progress.error }, "knowledge source failed to sync");
    return { ...progress };
  } finally {
    clearInterval(heartbeat);
  }
}
