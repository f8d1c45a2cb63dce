// The savers the checkpointer bench compares, each with what a warm process and a cold reader use,
// and a fast way to store many conversations: copies of one conversation the saver wrote itself.
import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph-checkpoint";
import { MongoDBSaver } from "@langchain/langgraph-checkpoint-mongodb";
import type { Logger } from "@switchboard/common";
import type { Db, Document, MongoClient } from "mongodb";
import { instrumentSaver } from "../../../packages/utils/src/checkpoint-metrics.js";
import {
  closeCheckpointer,
  getCheckpointer,
  getCheckpointerDb,
} from "../../../packages/utils/src/checkpointer.js";
import { MongoCheckpointSaver } from "../../../packages/utils/src/mongo-saver.js";
import { agentCollections } from "../../../packages/utils/src/saver/documents.js";

export const SAVER_NAMES = ["memory", "upstream", "ours"] as const;
export type SaverName = (typeof SAVER_NAMES)[number];

export interface Contender {
  name: SaverName;
  /** The process's saver: it keeps whatever it caches between calls. */
  warm: BaseCheckpointSaver;
  /** A new saver on the same store with nothing cached: another replica reading. None for memory. */
  cold?: () => BaseCheckpointSaver;
  /** Stores a copy of the conversation `template` under each of `threads`. */
  copyThread(template: string, threads: string[]): Promise<void>;
  close(): Promise<void>;
}

const COPY_BATCH = 1_000;
/** insertMany calls in flight while copying (DocumentDB loads faster with a few at once). */
const COPY_CONCURRENCY = 4;

/** Inserts the template thread's documents again under other thread ids, collection by collection. */
function mongoCopier(db: Db, collections: string[]) {
  const templates = new Map<string, Document[]>();
  return async (template: string, threads: string[]) => {
    const batches: Array<[string, string[]]> = [];
    for (const name of collections) {
      const key = `${name}\u0000${template}`;
      let docs = templates.get(key);
      if (!docs) {
        docs = await db
          .collection(name)
          .find({ thread_id: template }, { projection: { _id: 0 } })
          .toArray();
        templates.set(key, docs);
      }
      const perBatch = Math.max(1, Math.floor(COPY_BATCH / Math.max(1, docs.length)));
      for (let i = 0; i < threads.length; i += perBatch) batches.push([name, threads.slice(i, i + perBatch)]);
    }
    const insert = async () => {
      for (let next = batches.shift(); next; next = batches.shift()) {
        const [name, batchThreads] = next;
        const docs = templates.get(`${name}\u0000${template}`) ?? [];
        const copies = batchThreads.flatMap((thread) => docs.map((doc) => ({ ...doc, thread_id: thread })));
        if (copies.length > 0) await db.collection(name).insertMany(copies, { ordered: false });
      }
    };
    await Promise.all(Array.from({ length: COPY_CONCURRENCY }, insert));
  };
}

function memoryContender(): Contender {
  const saver = new MemorySaver();
  return {
    name: "memory",
    warm: saver,
    async copyThread(template, threads) {
      const prefix = JSON.stringify([template]).slice(0, -1);
      const writes = Object.entries(saver.writes).filter(([key]) => key.startsWith(`${prefix},`));
      for (const thread of threads) {
        const namespaces = Object.create(null);
        for (const [ns, checkpoints] of Object.entries(saver.storage[template] ?? {})) {
          namespaces[ns] = Object.assign(Object.create(null), checkpoints);
        }
        saver.storage[thread] = namespaces;
        for (const [key, value] of writes) {
          const [, ns, id] = JSON.parse(key) as [string, string, string];
          saver.writes[JSON.stringify([thread, ns, id])] = Object.assign(Object.create(null), value);
        }
      }
    },
    close: async () => undefined,
  };
}

/** Upstream as getCheckpointer() used to build it: per-agent collection names, setup(). */
async function upstreamContender(client: MongoClient, dbName: string, agent: string): Promise<Contender> {
  const options = {
    client,
    dbName,
    checkpointCollectionName: `checkpoints_${agent}`,
    checkpointWritesCollectionName: `checkpoint_writes_${agent}`,
  };
  const saver = new MongoDBSaver(options);
  const failures = await saver.setup();
  if (failures.length > 0) throw failures[0];
  return {
    name: "upstream",
    warm: saver,
    // Upstream keeps nothing between calls; a new instance is read the same way, side by side.
    cold: () => new MongoDBSaver(options),
    copyThread: mongoCopier(client.db(dbName), [
      options.checkpointCollectionName,
      options.checkpointWritesCollectionName,
    ]),
    close: async () => undefined,
  };
}

/** The URI with command monitoring on, so the bench can count the queries a call makes. */
export function monitoredUri(uri: string): string {
  if (uri.includes("?")) return `${uri}&monitorCommands=true`;
  const hosts = uri.replace(/^mongodb(\+srv)?:\/\//, "");
  return `${uri}${hosts.includes("/") ? "" : "/"}?monitorCommands=true`;
}

/**
 * Ours from getCheckpointer() (its client monitored, to count queries); a cold reader is the same
 * class on the same collections with an empty cache.
 */
async function oursContender(
  uri: string,
  db: Db,
  agent: string,
  logger: Logger,
  onCommand: () => void,
): Promise<Contender> {
  const env = { MONGODB_URI: monitoredUri(uri), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: db.databaseName };
  const options = { agentName: agent, env, logger };
  const saver = await getCheckpointer(options);
  if (!(saver instanceof MongoCheckpointSaver)) throw new Error("getCheckpointer() did not build our saver");
  (await getCheckpointerDb(options))?.client.on("commandStarted", onCommand);
  const collections = agentCollections(agent);
  return {
    name: "ours",
    warm: saver,
    cold: () => instrumentSaver(new MongoCheckpointSaver({ db, collections }), "mongodb", agent),
    copyThread: mongoCopier(db, Object.values(collections)),
    close: closeCheckpointer,
  };
}

export async function createContenders(
  names: readonly SaverName[],
  mongo: { uri: string; client: MongoClient; dbName: string },
  logger: Logger,
  onCommand: () => void,
): Promise<Contender[]> {
  const contenders: Contender[] = [];
  for (const name of names) {
    if (name === "memory") contenders.push(memoryContender());
    // Each Mongo saver in its own database, as each agent has its own collections.
    if (name === "upstream")
      contenders.push(await upstreamContender(mongo.client, `${mongo.dbName}_upstream`, "bench"));
    if (name === "ours")
      contenders.push(
        await oursContender(mongo.uri, mongo.client.db(`${mongo.dbName}_ours`), "bench", logger, onCommand),
      );
  }
  return contenders;
}
