// Building one checkpointer from its options: settings resolved to a key, then the saver and its client.
import { MemorySaver } from "@langchain/langgraph-checkpoint";
import { getLogger, type Logger, SwitchboardError } from "@switchboard/common";
import { type Db, MongoClient } from "mongodb";
import { agentLogger, withoutAgent } from "./agent-logger.js";
import { assertValidAgentName, detectAgentName } from "./agent-name.js";
import { type CheckpointSettings, readCheckpointSettings } from "./checkpoint-env.js";
import { checkpointMetrics, instrumentSaver } from "./checkpoint-metrics.js";
import type { CheckpointerHandle, CheckpointerInfo } from "./checkpointer-handle.js";
import { MongoCheckpointSaver } from "./mongo-saver.js";
import { databaseFromUri, encodeMongoUri, redactMongoUri } from "./mongo-uri.js";
import { agentCollections, EXPIRY_FIELD, type SaverCollections } from "./saver/documents.js";

export interface CheckpointerOptions {
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Defaults to the detected agent name (AGENT_NAME, entry script's package, npm_package_name). */
  agentName?: string;
  logger?: Logger;
  /**
   * A MongoDB client to use instead of one of the checkpointer's own (a host shares one between its
   * agents): used when the settings choose MongoDB, on the database they name, and never closed here.
   */
  client?: MongoClient;
}

export const DEFAULT_DB_NAME = "switchboard";
/** Upstream MongoDBSaver's per-document TTL field: it expired old messages of live conversations. */
const UPSTREAM_TTL_KEY = "upserted_at";

type MongoSettings = Extract<CheckpointSettings, { type: "mongodb" }>;
type PostgresSettings = Extract<CheckpointSettings, { type: "postgres" }>;

/** Options resolved to what the checkpointer will be; equal keys build equal checkpointers. */
export type ResolvedCheckpointer = { key: string; agent: string; logger: Logger } & (
  | { backend: "memory"; reason: "configured" | "no-uri" }
  | { backend: "postgres"; settings: PostgresSettings }
  | {
      backend: "mongodb";
      settings: MongoSettings;
      uri: string;
      dbName: string;
      collections: SaverCollections;
      ttlSeconds?: number;
    }
);

/** Reads the settings (env parsed once, here) and names the checkpointer they describe. */
export function resolveCheckpointer(options: CheckpointerOptions): ResolvedCheckpointer {
  const env = options.env ?? process.env;
  const settings = readCheckpointSettings(env);
  const agent = options.agentName
    ? assertValidAgentName(options.agentName, "the agentName option")
    : detectAgentName({ env }).name;
  const logger = agentLogger(options.logger ?? getLogger(), agent);
  if (settings.type === "memory") {
    return {
      key: JSON.stringify(["memory", agent]),
      agent,
      logger,
      backend: "memory",
      reason: settings.reason,
    };
  }
  if (settings.type === "postgres") {
    const key = JSON.stringify(["postgres", agent, settings]);
    return { key, agent, logger, backend: "postgres", settings };
  }
  const uri = encodeMongoUri(settings.uri);
  const dbName = settings.dbName ?? databaseFromUri(uri) ?? DEFAULT_DB_NAME;
  const collections = collectionNames(agent, settings);
  const ttlSeconds = settings.ttlMinutes > 0 ? Math.round(settings.ttlMinutes * 60) : undefined;
  // Everything the saver and its client are built from: the same settings share one checkpointer.
  const key = JSON.stringify([
    "mongodb",
    agent,
    uri,
    dbName,
    collections,
    ttlSeconds ?? 0,
    settings.timeoutMs,
  ]);
  return { key, agent, logger, backend: "mongodb", settings, uri, dbName, collections, ttlSeconds };
}

/**
 * A MongoCheckpointSaver on the agent's collections when a MongoDB URI is configured, LangGraph's
 * PostgresSaver in the agent's schema with LANGGRAPH_CHECKPOINT_TYPE=postgres, else the in-memory
 * saver with a warning. Never falls back silently: an unreachable MongoDB is an error
 * naming host and setting.
 */
export async function buildCheckpointer(
  resolved: ResolvedCheckpointer,
  shared?: MongoClient,
): Promise<CheckpointerHandle> {
  const { agent, logger } = resolved;
  if (resolved.backend === "memory") {
    if (resolved.reason === "no-uri") {
      logger.warn(
        "No MongoDB URI is set (LANGGRAPH_CHECKPOINT_MONGODB_URI or MONGODB_URI): using the in-memory " +
          "checkpointer, so conversations will not survive a restart.",
      );
    } else {
      logger.info("LANGGRAPH_CHECKPOINT_TYPE=memory: conversations will not survive a restart.");
    }
    const metrics = checkpointMetrics();
    return {
      saver: instrumentSaver(new MemorySaver(), "memory", agent, metrics),
      metrics,
      info: { agent, backend: "memory" },
      ping: async () => true,
      close: async () => undefined,
    };
  }
  if (resolved.backend === "postgres") {
    // Loaded only for PostgreSQL: its driver and saver are no part of a MongoDB agent's start.
    const { buildPostgres } = await import("./postgres-checkpointer.js");
    return buildPostgres(agent, resolved.settings, logger, DEFAULT_DB_NAME);
  }
  return buildMongo(resolved, shared);
}

async function buildMongo(
  resolved: Extract<ResolvedCheckpointer, { backend: "mongodb" }>,
  shared: MongoClient | undefined,
): Promise<CheckpointerHandle> {
  const { agent, logger, settings, uri, dbName, collections, ttlSeconds } = resolved;
  const shown = redactMongoUri(uri);
  let client: MongoClient;
  try {
    client =
      shared ??
      new MongoClient(uri, {
        serverSelectionTimeoutMS: settings.timeoutMs,
        appName: `switchboard-${agent}`,
      });
  } catch (error) {
    throw new SwitchboardError(
      "checkpointer.config",
      "user",
      `${settings.uriVariable} is not a valid MongoDB URI (${shown}): ${reason(error)}`,
    );
  }
  try {
    await client.connect();
    const db = client.db(dbName);
    await db.command({ ping: 1 });
    await reconcileTtlIndexes(db, Object.values(collections), ttlSeconds !== undefined);
    const saver = new MongoCheckpointSaver({ db, collections, ttlSeconds });
    await saver.setup();
    const info: CheckpointerInfo = {
      agent,
      backend: "mongodb",
      uri: shown,
      dbName,
      collection: collections.checkpoints,
      writesCollection: collections.writes,
      messagesCollection: collections.messages,
    };
    if (ttlSeconds) info.ttlSeconds = ttlSeconds;
    logger.info(withoutAgent(info), "Checkpoints persist to MongoDB");
    const metrics = checkpointMetrics();
    return {
      saver: instrumentSaver(saver, "mongodb", agent, metrics),
      metrics,
      info,
      db,
      ping: () => pingDb(db),
      // A shared client is its owner's to close.
      close: async () => {
        if (!shared) await client.close();
      },
    };
  } catch (error) {
    if (!shared) await client.close().catch(() => undefined);
    throw new SwitchboardError(
      "checkpointer.unreachable",
      "system",
      `Cannot use MongoDB at ${shown} (from ${settings.uriVariable}) for agent "${agent}": ${reason(error)}. ` +
        `Start MongoDB (docker compose -f docker-compose.dev.yaml up -d mongodb), correct ${settings.uriVariable}, ` +
        "or set LANGGRAPH_CHECKPOINT_TYPE=memory to run without persistence.",
      { cause: error },
    );
  }
}

async function pingDb(db: Db): Promise<boolean> {
  try {
    await db.command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}

function collectionNames(agent: string, settings: MongoSettings): SaverCollections {
  const { collection, writesCollection } = settings;
  const own = agentCollections(agent);
  if (collection && writesCollection) return { ...own, checkpoints: collection, writes: writesCollection };
  if (collection || writesCollection) {
    throw new SwitchboardError(
      "checkpointer.config",
      "user",
      "Set both LANGGRAPH_CHECKPOINT_MONGODB_COLLECTION and LANGGRAPH_CHECKPOINT_MONGODB_WRITES_COLLECTION, or " +
        `neither to use this agent's own checkpoints_${agent} / checkpoint_writes_${agent}.`,
    );
  }
  return own;
}

/**
 * Conversations expire as a whole (see MongoCheckpointSaver), through a TTL index on each
 * document's expiry time. Upstream's per-document TTL index would expire the old messages of a
 * live conversation, so it is dropped; so is ours when retention is turned off (0).
 */
async function reconcileTtlIndexes(db: Db, collections: string[], retention: boolean): Promise<void> {
  const existing = await db.listCollections({}, { nameOnly: true }).toArray();
  const names = new Set(existing.map((entry) => entry.name));
  for (const name of collections) {
    if (!names.has(name)) continue;
    const indexes = await db.collection(name).listIndexes().toArray();
    for (const index of indexes) {
      if (index.expireAfterSeconds === undefined || !index.key) continue;
      const ours = EXPIRY_FIELD in index.key;
      if ((UPSTREAM_TTL_KEY in index.key && !ours) || (ours && !retention)) {
        await db.collection(name).dropIndex(index.name);
      }
    }
  }
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // Driver messages can echo the connection string; never let a password through.
  return text.replace(/mongodb(\+srv)?:\/\/[^\s'"]+/gi, (uri) => redactMongoUri(uri));
}
