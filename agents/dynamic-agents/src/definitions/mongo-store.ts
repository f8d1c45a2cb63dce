import type { Collection, Db, Filter, OptionalUnlessRequiredId } from "mongodb";
import type { DefinitionStore, StoredAgent, StoredMcpServer, StoredModel } from "./spec.js";
import { type Docs, definitionStore } from "./store.js";

/** CAIPE's collections, and the one Switchboard adds to tell replicas of a change. */
export const COLLECTIONS = {
  agents: "dynamic_agents",
  mcpServers: "mcp_servers",
  models: "llm_models",
  revisions: "definition_revisions",
} as const;

const DUPLICATE_KEY = 11000;

/**
 * The store in MongoDB. Every write bumps a counter that every replica polls (change streams would
 * need a replica set, which neither the test server nor every deployment has); CAIPE's own UI does
 * not bump it, so the newest `updated_at` and the count of `dynamic_agents` are part of the revision too.
 */
export function mongoStore(db: Db): DefinitionStore {
  const revisions = db.collection<{ _id: string; value: number }>(COLLECTIONS.revisions);
  const agents = db.collection<StoredAgent>(COLLECTIONS.agents);
  return definitionStore({
    kind: "mongodb",
    agents: mongoDocs(agents),
    mcpServers: mongoDocs(db.collection<StoredMcpServer>(COLLECTIONS.mcpServers)),
    models: mongoDocs(db.collection<StoredModel>(COLLECTIONS.models)),
    async bump() {
      await revisions.updateOne({ _id: "definitions" }, { $inc: { value: 1 } }, { upsert: true });
    },
    async revision() {
      const [counter, count, newest] = await Promise.all([
        revisions.findOne({ _id: "definitions" }),
        agents.countDocuments(),
        agents
          .find({}, { projection: { updated_at: 1 } })
          .sort({ updated_at: -1 })
          .limit(1)
          .next(),
      ]);
      return `${counter?.value ?? 0}:${count}:${newest?.updated_at ?? ""}`;
    },
    // The database's client is the host's to close.
    close: async () => {},
  });
}

function mongoDocs<T extends { _id: string; config_driven: boolean }>(collection: Collection<T>): Docs<T> {
  // Ids are strings checked before they get here; typed filters keep them from being anything else.
  const byId = (id: string) => ({ _id: id }) as Filter<T>;
  return {
    all: async () => (await collection.find({}).toArray()) as T[],
    get: async (id) => ((await collection.findOne(byId(id))) as T | null) ?? undefined,
    async insert(doc) {
      try {
        await collection.insertOne(doc as OptionalUnlessRequiredId<T>);
        return true;
      } catch (error) {
        if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
        throw error;
      }
    },
    async replace(doc, upsert) {
      try {
        const result = await collection.replaceOne(
          { _id: doc._id, config_driven: doc.config_driven } as Filter<T>,
          doc,
          { upsert },
        );
        return result.matchedCount + result.upsertedCount > 0;
      } catch (error) {
        // The id is held by a document of the other kind (the upsert's insert collided).
        if ((error as { code?: number }).code === DUPLICATE_KEY) return false;
        throw error;
      }
    },
    async remove(id, configDriven) {
      const result = await collection.deleteOne({ _id: id, config_driven: configDriven } as Filter<T>);
      return result.deletedCount > 0;
    },
  };
}
