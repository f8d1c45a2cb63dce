import type { DefinitionStore } from "./spec.js";
import { type Docs, definitionStore } from "./store.js";

/**
 * The store in memory, when no MongoDB is configured: agents made through the API last as long as
 * the process (one replica; the host says so at start-up).
 */
export function memoryStore(): DefinitionStore {
  let revision = 0;
  return definitionStore({
    kind: "memory",
    agents: memoryDocs(),
    mcpServers: memoryDocs(),
    models: memoryDocs(),
    bump: async () => {
      revision += 1;
    },
    revision: async () => String(revision),
    close: async () => {},
  });
}

function memoryDocs<T extends { _id: string; config_driven: boolean }>(): Docs<T> {
  const docs = new Map<string, T>();
  // Copies in and out, as a database would: a caller changing what it got changes nothing stored.
  const copy = (doc: T): T => structuredClone(doc);
  return {
    all: async () => [...docs.values()].map(copy),
    get: async (id) => {
      const doc = docs.get(id);
      return doc ? copy(doc) : undefined;
    },
    async insert(doc) {
      if (docs.has(doc._id)) return false;
      docs.set(doc._id, copy(doc));
      return true;
    },
    async replace(doc, upsert) {
      const old = docs.get(doc._id);
      if (old ? old.config_driven !== doc.config_driven : !upsert) return false;
      docs.set(doc._id, copy(doc));
      return true;
    },
    async remove(id, configDriven) {
      if (docs.get(id)?.config_driven !== configDriven) return false;
      return docs.delete(id);
    },
  };
}
