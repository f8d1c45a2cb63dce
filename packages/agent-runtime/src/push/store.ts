import { randomUUID } from "node:crypto";
import { TaskPushNotificationConfig } from "@a2a-js/sdk";
import {
  type PushNotificationStore,
  resolveUserScope,
  type ServerCallContext,
  type StoredPushNotificationConfig,
} from "@a2a-js/sdk/server";
import { collectionsFor } from "@switchboard/contract";
import { LRUCache } from "lru-cache";
import type { Collection, Db } from "mongodb";

interface PushConfigDocument {
  /** `<owner>/<taskId>/<config id>` */
  _id: string;
  owner: string;
  taskId: string;
  /** The protocol version the config was registered over: deliveries use that version's body. */
  wireVersion: string;
  /** The config in the protocol's JSON form (its credentials are the webhook's, sent with each delivery). */
  config: unknown;
}

// Calls without an A2A-Version header speak 0.3 (the SDK's rule).
export const LEGACY_VERSION = "0.3";

/**
 * What the runtime asks of an agent's push-config store beyond the SDK's: configs with the version
 * each was registered over (for deliveries), a hint before a new task's first update, and deleting
 * its part of a conversation (its tasks' configs) and of a user. Both backends keep these, asserted
 * by one suite (test/stores/).
 */
export interface AgentPushConfigStore extends PushNotificationStore {
  loadWithMetadata(
    taskId: string,
    context: ServerCallContext,
    update?: DeliveredUpdate,
  ): Promise<StoredPushNotificationConfig[]>;
  /** A task the SDK has just given an id: only the request creating it can have registered a webhook. */
  willCreate(taskId: string, context: ServerCallContext): void;
  /** Deletes the owner's configs of these tasks; how many there were. */
  deleteTasks(owner: string, taskIds: string[]): Promise<number>;
  /** Deletes every config of the owner; how many there were. */
  deleteUser(owner: string): Promise<number>;
}

/**
 * How long a task's configs, once read for a delivery, serve its next updates without a read:
 * they are looked up for every update (six to nine per turn). A config saved or deleted on another
 * replica reaches this one's deliveries of a change of state (the turn's end, a question) once the
 * configs known are older than this, and its progress (status messages, answer text) once they are
 * older than {@link PROGRESS_FRESH_MS}: a turn longer than a second reads them once, not once a
 * second. One saved or deleted here counts at once; lists and reads are always fresh.
 */
const FRESH_MS = 1_000;
const PROGRESS_FRESH_MS = 10_000;

/**
 * Push-notification configs in `push_configs_<agent>`, beside the tasks they belong to and scoped to
 * the caller the same way: a config outlives the process that accepted it, and any replica can
 * deliver the task's updates.
 */
export class MongoPushConfigStore implements AgentPushConfigStore {
  /** A task's configs, read at most once per {@link FRESH_MS} however many updates ask. */
  private readonly recent = new LRUCache<string, StoredPushNotificationConfig[], Scope>({
    // Bounded by count through maxSize, not `max`: a `max` makes lru-cache set aside its whole lists
    // at once (about 230 KB), in every agent a host serves, before any push config exists.
    maxSize: 10_000,
    sizeCalculation: () => 1,
    ttl: FRESH_MS,
    // Progress is delivered to configs up to PROGRESS_FRESH_MS old (see loadWithMetadata).
    noDeleteOnStaleGet: true,
    fetchMethod: (_key, _stale, { context }) => this.read(context),
  });

  private constructor(private readonly collection: Collection<PushConfigDocument>) {}

  static async create(db: Db, agent: string): Promise<MongoPushConfigStore> {
    const collection = db.collection<PushConfigDocument>(collectionsFor(agent).pushConfigs);
    await collection.createIndex({ owner: 1, taskId: 1 }, { name: "owner_task" });
    return new MongoPushConfigStore(collection);
  }

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    // The SDK reads the id it answers with from the config it passed in.
    if (!config.id) config.id = randomUUID();
    const owner = resolveUserScope(context);
    const document: PushConfigDocument = {
      _id: `${owner}/${taskId}/${config.id}`,
      owner,
      taskId,
      wireVersion: context.requestedVersion || LEGACY_VERSION,
      config: TaskPushNotificationConfig.toJSON({ ...config, taskId }),
    };
    await this.collection.replaceOne({ _id: document._id }, document, { upsert: true });
    // Read again at once (saves are rare): a new task's config, saved before its turn, stays known.
    const scope = { owner, taskId };
    this.recent.set(cacheKey(scope), await this.read(scope));
  }

  /**
   * A task the SDK has just given an id (see the executor): nobody can have registered a webhook
   * for it but the request that created it, whose config {@link save} holds already. So its first
   * updates need no read.
   */
  willCreate(taskId: string, context: ServerCallContext): void {
    const key = cacheKey({ owner: resolveUserScope(context), taskId });
    if (!this.recent.has(key)) this.recent.set(key, []);
  }

  /** What a caller lists or reads: as stored now. */
  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    const configs = await this.read({ owner: resolveUserScope(context), taskId });
    return configs.map((stored) => stored.config);
  }

  /**
   * What deliveries read (PushDelivery, once per update): read again when older than
   * {@link FRESH_MS}, or for progress within a state, {@link PROGRESS_FRESH_MS}.
   */
  async loadWithMetadata(
    taskId: string,
    context: ServerCallContext,
    update?: DeliveredUpdate,
  ): Promise<StoredPushNotificationConfig[]> {
    const scope = { owner: resolveUserScope(context), taskId };
    const key = cacheKey(scope);
    const age = FRESH_MS - this.recent.getRemainingTTL(key);
    const known =
      update?.progress && age <= PROGRESS_FRESH_MS ? this.recent.get(key, { allowStale: true }) : undefined;
    return known ?? (await this.recent.fetch(key, { context: scope })) ?? [];
  }

  private async read(scope: Scope): Promise<StoredPushNotificationConfig[]> {
    const documents = await this.collection.find(scope).sort({ _id: 1 }).toArray();
    return documents.map((document) => ({
      config: TaskPushNotificationConfig.fromJSON(document.config),
      wireVersion: document.wireVersion,
    }));
  }

  async deleteTasks(owner: string, taskIds: string[]): Promise<number> {
    if (taskIds.length === 0) return 0;
    const { deletedCount } = await this.collection.deleteMany({ owner, taskId: { $in: taskIds } });
    for (const taskId of taskIds) this.recent.delete(cacheKey({ owner, taskId }));
    return deletedCount;
  }

  async deleteUser(owner: string): Promise<number> {
    const { deletedCount } = await this.collection.deleteMany({ owner });
    for (const key of this.recent.keys()) if (key.startsWith(`${owner}\u0000`)) this.recent.delete(key);
    return deletedCount;
  }

  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    // A v0.3 delete without an id means the task's default config, whose id is the task's (the SDK's rule).
    const owner = resolveUserScope(context);
    await this.collection.deleteOne({ _id: `${owner}/${taskId}/${configId ?? taskId}` });
    this.recent.delete(cacheKey({ owner, taskId }));
  }
}

/** What a delivery tells the store of its update. */
export interface DeliveredUpdate {
  /** Progress within the task's state (a working status, answer text), not a change of it. */
  progress: boolean;
}

interface Scope {
  owner: string;
  taskId: string;
}

const cacheKey = ({ owner, taskId }: Scope) => `${owner}\u0000${taskId}`;
