import type { DefinitionStore, StoredAgent, StoredMcpServer, StoredModel } from "./spec.js";

// The definitions store, one logic over two kinds of collections (MongoDB's, or maps in memory
// when no MongoDB is configured), in CAIPE's collections and document shape.

/** One collection of documents keyed by `_id`, each config-driven (from the file) or not (API-made). */
export interface Docs<T extends { _id: string; config_driven: boolean }> {
  all(): Promise<T[]>;
  get(id: string): Promise<T | undefined>;
  /** False when the id is taken. */
  insert(doc: T): Promise<boolean>;
  /**
   * Replaces the document of that id whose config_driven equals the new one's; with `upsert`,
   * inserts it when there is none. False when there is no such document, or the id is taken by
   * one of the other kind.
   */
  replace(doc: T, upsert: boolean): Promise<boolean>;
  /** Removes the document of that id whose config_driven is `configDriven`; false when none. */
  remove(id: string, configDriven: boolean): Promise<boolean>;
}

/** What a store is made of: its three collections and a revision every write bumps. */
export interface StoreParts {
  kind: DefinitionStore["kind"];
  agents: Docs<StoredAgent>;
  mcpServers: Docs<StoredMcpServer>;
  models: Docs<StoredModel>;
  /** Bumps the revision: every replica polling it sees a change. */
  bump(): Promise<void>;
  /** The revision, and whatever else changes when CAIPE's own UI writes an agent. */
  revision(): Promise<string>;
  close(): Promise<void>;
}

export function definitionStore(parts: StoreParts, now: () => Date = () => new Date()): DefinitionStore {
  const stamp = () => now().toISOString();
  return {
    kind: parts.kind,
    revision: () => parts.revision(),
    listAgents: () => parts.agents.all(),
    getAgent: (id) => parts.agents.get(id),
    async createAgent(agent) {
      const time = stamp();
      const created = await parts.agents.insert({
        ...agent,
        config_driven: false,
        created_at: time,
        updated_at: time,
      });
      if (created) await parts.bump();
      return created;
    },
    async replaceAgent(agent) {
      const existing = await parts.agents.get(agent._id);
      if (!existing || existing.config_driven) return false;
      const replaced = await parts.agents.replace(
        { ...agent, config_driven: false, created_at: existing.created_at, updated_at: stamp() },
        false,
      );
      if (replaced) await parts.bump();
      return replaced;
    },
    async deleteAgent(id) {
      const removed = await parts.agents.remove(id, false);
      if (removed) await parts.bump();
      return removed;
    },
    listMcpServers: () => parts.mcpServers.all(),
    listModels: () => parts.models.all(),
    async syncConfig(documents) {
      const time = stamp();
      const conflicts: string[] = [];
      let changed = false;
      const sync = async <
        T extends { _id: string; config_driven: boolean; updated_at: string; created_at?: string },
      >(
        docs: Docs<T>,
        wanted: ReadonlyArray<{ _id: string }>,
        keep: ReadonlySet<string>,
        stale: (doc: T) => boolean,
        withCreated: boolean,
      ) => {
        const existing = new Map((await docs.all()).map((doc) => [doc._id, doc]));
        for (const doc of wanted) {
          const old = existing.get(doc._id);
          if (old && !old.config_driven) {
            conflicts.push(doc._id);
            continue;
          }
          if (old && same(old, doc)) continue;
          const next = {
            ...doc,
            config_driven: true,
            ...(withCreated ? { created_at: old?.created_at ?? time } : {}),
            updated_at: time,
          } as unknown as T;
          if (await docs.replace(next, true)) changed = true;
          else conflicts.push(doc._id);
        }
        const ids = new Set([...wanted.map((doc) => doc._id), ...keep]);
        for (const doc of existing.values()) {
          if (doc.config_driven && !ids.has(doc._id) && stale(doc) && (await docs.remove(doc._id, true)))
            changed = true;
        }
      };
      // As CAIPE's seed: an agent adopted through its import, or a server AgentGateway discovered,
      // is not the file's to remove.
      await sync(
        parts.agents,
        documents.agents,
        new Set(documents.keepAgents),
        (doc) => doc.config_import_adopted !== true,
        true,
      );
      await sync(
        parts.mcpServers,
        documents.mcpServers,
        new Set(),
        (doc) => doc.source !== "agentgateway",
        true,
      );
      await sync(parts.models, documents.models, new Set(), () => true, false);
      if (changed) await parts.bump();
      return { conflicts };
    },
    close: () => parts.close(),
  };
}

/** Whether a stored document already says what the file says (times aside). */
function same(stored: Record<string, unknown>, wanted: Record<string, unknown>): boolean {
  const { created_at: _c, updated_at: _u, ...rest } = stored;
  return JSON.stringify(sorted(rest)) === JSON.stringify(sorted({ ...wanted, config_driven: true }));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, one]) => one !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, one]) => [key, sorted(one)]),
    );
  }
  return value;
}
