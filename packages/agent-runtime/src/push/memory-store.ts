import { randomUUID } from "node:crypto";
import { TaskPushNotificationConfig } from "@a2a-js/sdk";
import {
  resolveUserScope,
  type ServerCallContext,
  type StoredPushNotificationConfig,
} from "@a2a-js/sdk/server";
import { type AgentPushConfigStore, LEGACY_VERSION } from "./store.js";

/**
 * Push-notification configs in process memory, for the memory backend: scoped to the caller as
 * {@link MongoPushConfigStore} is, and deletable by a conversation's tasks or by owner (the SDK's
 * in-memory store cannot be asked either). Gone on restart.
 */
export class MemoryPushConfigStore implements AgentPushConfigStore {
  /** By owner and task: each config in the protocol's JSON form, with the version it came over. */
  private readonly configs = new Map<string, Array<{ json: unknown; wireVersion: string }>>();

  /** Nothing to read ahead in memory. */
  willCreate(): void {}

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    // The SDK reads the id it answers with from the config it passed in.
    if (!config.id) config.id = randomUUID();
    const key = keyOf(resolveUserScope(context), taskId);
    const kept = (this.configs.get(key) ?? []).filter((entry) => idOf(entry.json) !== config.id);
    kept.push({
      json: TaskPushNotificationConfig.toJSON({ ...config, taskId }),
      wireVersion: context.requestedVersion || LEGACY_VERSION,
    });
    this.configs.set(
      key,
      kept.sort((a, b) => idOf(a.json).localeCompare(idOf(b.json))),
    );
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.loadWithMetadata(taskId, context)).map((stored) => stored.config);
  }

  async loadWithMetadata(
    taskId: string,
    context: ServerCallContext,
  ): Promise<StoredPushNotificationConfig[]> {
    return (this.configs.get(keyOf(resolveUserScope(context), taskId)) ?? []).map((entry) => ({
      config: TaskPushNotificationConfig.fromJSON(entry.json),
      wireVersion: entry.wireVersion,
    }));
  }

  async delete(taskId: string, context: ServerCallContext, configId?: string): Promise<void> {
    // A v0.3 delete without an id means the task's default config, whose id is the task's (the SDK's rule).
    const key = keyOf(resolveUserScope(context), taskId);
    const kept = (this.configs.get(key) ?? []).filter((entry) => idOf(entry.json) !== (configId ?? taskId));
    if (kept.length > 0) this.configs.set(key, kept);
    else this.configs.delete(key);
  }

  async deleteTasks(owner: string, taskIds: string[]): Promise<number> {
    return this.deleteWhere((key) => taskIds.some((taskId) => key === keyOf(owner, taskId)));
  }

  async deleteUser(owner: string): Promise<number> {
    return this.deleteWhere((key) => key.startsWith(keyOf(owner, "")));
  }

  private deleteWhere(matches: (key: string) => boolean): number {
    let deleted = 0;
    for (const [key, entries] of this.configs) {
      if (!matches(key)) continue;
      this.configs.delete(key);
      deleted += entries.length;
    }
    return deleted;
  }
}

const keyOf = (owner: string, taskId: string) => `${owner}\u0000${taskId}`;
const idOf = (json: unknown) => String((json as { id?: unknown }).id ?? "");
