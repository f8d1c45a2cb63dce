// The long-term store (LangGraph's BaseStore): what an agent keeps across conversations, per user.
import type { BaseStore } from "@langchain/langgraph-checkpoint";
import { InMemoryStore } from "@langchain/langgraph-checkpoint";
import { MongoDBStore } from "@langchain/langgraph-checkpoint-mongodb";
import { getLogger, type Logger, SwitchboardError } from "@switchboard/common";
import { MongoClient } from "mongodb";
import { agentLogger, withoutAgent } from "./agent-logger.js";
import { assertValidAgentName, detectAgentName } from "./agent-name.js";
import { DEFAULT_DB_NAME } from "./checkpointer-build.js";
import { databaseFromUri, encodeMongoUri, redactMongoUri } from "./mongo-uri.js";
import { readStoreSettings } from "./store-env.js";

export interface StoreOptions {
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Defaults to the detected agent name, as for getCheckpointer(). */
  agentName?: string;
  logger?: Logger;
  /**
   * The MongoDB client a host shares between its agents (made for the checkpoints' URI): used when
   * the store keeps to that URI (no LANGGRAPH_STORE_MONGODB_URI of its own), and never closed here.
   */
  client?: MongoClient;
}

export type StoreInfo =
  | { agent: string; backend: "none" }
  | { agent: string; backend: "memory"; ttlMinutes: number }
  | {
      agent: string;
      backend: "mongodb";
      uri: string;
      dbName: string;
      collection: string;
      ttlMinutes: number;
    };

/** One built store: the BaseStore, where it keeps items, and its MongoDB client's lifetime. */
export interface StoreHandle {
  /** Undefined when LANGGRAPH_STORE_TYPE=none. */
  readonly store?: BaseStore;
  readonly info: StoreInfo;
  /**
   * A cheap token that changes whenever the items directly in `namespace` change (added, rewritten,
   * deleted): one aggregation over an index, so an agent may keep a user's items in memory and read
   * them again only when it changed. Undefined for the in-memory store (reading it is as cheap).
   */
  revision?(namespace: string[]): Promise<string>;
  close(): Promise<void>;
}

/** The collection an agent's store lives in, beside its checkpoints. */
export function storeCollection(agent: string): string {
  return `store_${agent}`;
}

/**
 * The agent's long-term store, by the same env contract as getCheckpointer(): MongoDBStore on
 * `store_<agent>` (indexes made here, at start-up) when a MongoDB URI is set
 * (LANGGRAPH_STORE_MONGODB_URI, else the checkpoints' URI), else an in-memory store with a warning;
 * `LANGGRAPH_STORE_TYPE=none` builds none. Items expire LANGGRAPH_STORE_TTL_MINUTES after their
 * last write (a TTL index; 0 keeps them). An unreachable MongoDB is an error naming host and setting.
 */
export async function openStore(options: StoreOptions = {}): Promise<StoreHandle> {
  const env = options.env ?? process.env;
  const agent = options.agentName
    ? assertValidAgentName(options.agentName, "the agentName option")
    : detectAgentName({ env }).name;
  const logger = agentLogger(options.logger ?? getLogger(), agent);
  const settings = readStoreSettings(env);
  if (settings.type === "none") {
    logger.info("LANGGRAPH_STORE_TYPE=none: no long-term memory.");
    return { info: { agent, backend: "none" }, close: async () => undefined };
  }
  if (settings.type === "memory") {
    if (settings.reason === "no-uri") {
      logger.warn(
        "No MongoDB URI is set (LANGGRAPH_STORE_MONGODB_URI or MONGODB_URI): using the in-memory store, " +
          "so what users asked to be remembered will not survive a restart.",
      );
    }
    // Expiry is the MongoDB TTL index's work: in memory, items live as long as the process.
    return {
      store: new InMemoryStore(),
      info: { agent, backend: "memory", ttlMinutes: settings.ttlMinutes },
      close: async () => undefined,
    };
  }
  const uri = encodeMongoUri(settings.uri);
  const shown = redactMongoUri(uri);
  const dbName = settings.dbName ?? databaseFromUri(uri) ?? DEFAULT_DB_NAME;
  const collection = storeCollection(agent);
  const shared = settings.uriVariable === "LANGGRAPH_STORE_MONGODB_URI" ? undefined : options.client;
  const client =
    shared ??
    new MongoClient(uri, {
      serverSelectionTimeoutMS: settings.timeoutMs,
      appName: `switchboard-${agent}-store`,
    });
  // A shared client is its owner's to close.
  const closeClient = async () => {
    if (!shared) await client.close();
  };
  try {
    await client.connect();
    const ttl =
      settings.ttlMinutes > 0 ? { defaultTtl: settings.ttlMinutes * 60, refreshOnRead: false } : undefined;
    const store = new MongoDBStore({ client, dbName, collectionName: collection, ttl });
    await store.start();
    const items = client.db(dbName).collection(collection);
    // A user's items are read by namespace (MongoDBStore queries namespace.0, namespace.1, …).
    await items.createIndex({ "namespace.0": 1, "namespace.1": 1 });
    await items.createIndex({ namespaceStr: 1, updatedAt: -1 });
    if (!ttl) await dropTtlIndex(items);
    const info: StoreInfo = {
      agent,
      backend: "mongodb",
      uri: shown,
      dbName,
      collection,
      ttlMinutes: settings.ttlMinutes,
    };
    logger.info(withoutAgent(info), "Long-term memory persists to MongoDB");
    // One command: the count and the newest write together (each turn asks, before its model call).
    const revision = async (namespace: string[]) => {
      const [summary] = await items
        .aggregate<{ count: number; newest: unknown }>([
          { $match: { namespaceStr: namespace.join("/") } },
          { $group: { _id: null, count: { $sum: 1 }, newest: { $max: "$updatedAt" } } },
        ])
        .toArray();
      const newest = summary?.newest instanceof Date ? summary.newest.getTime() : 0;
      return `${summary?.count ?? 0}:${newest}`;
    };
    return { store, info, revision, close: closeClient };
  } catch (error) {
    await closeClient().catch(() => undefined);
    const text = (error instanceof Error ? error.message : String(error)).replace(
      /mongodb(\+srv)?:\/\/[^\s'"]+/gi,
      (found) => redactMongoUri(found),
    );
    throw new SwitchboardError(
      "store.unreachable",
      "system",
      `Cannot use MongoDB at ${shown} (from ${settings.uriVariable}) for the ${agent} agent's long-term store: ${text}. ` +
        `Start MongoDB, correct ${settings.uriVariable}, or set LANGGRAPH_STORE_TYPE=memory or none.`,
      { cause: error },
    );
  }
}

/** With LANGGRAPH_STORE_TTL_MINUTES=0 items are kept: an expiry index from an earlier setting goes. */
async function dropTtlIndex(items: ReturnType<ReturnType<MongoClient["db"]>["collection"]>): Promise<void> {
  const indexes = await items.listIndexes().toArray();
  for (const index of indexes) {
    if (index.expireAfterSeconds !== undefined && index.key && "expiresAt" in index.key) {
      await items.dropIndex(index.name);
    }
  }
}
