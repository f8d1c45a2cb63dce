import type { Logger } from "@switchboard/common";
import { readCheckpointSettings, redactMongoUri } from "@switchboard/utils";
import { type Db, MongoClient } from "mongodb";

/** The database name when neither the settings nor the URI name one (the runtime's). */
const DEFAULT_DB_NAME = "switchboard";

/**
 * One MongoDB client for the whole host (MONGODB_URI, as every agent): each agent keeps its own
 * collections in it, and the definitions store CAIPE's. Undefined when the host runs without MongoDB.
 */
export async function openSharedMongo(
  env: NodeJS.ProcessEnv,
  logger: Logger,
): Promise<{ client: MongoClient; db: Db; close(): Promise<void> } | undefined> {
  const settings = readCheckpointSettings(env);
  const uri = settings.type === "mongodb" ? settings.uri : settings.type === "postgres" ? settings.mongoUri : undefined;
  if (!uri) return undefined;
  const dbName =
    (settings.type === "mongodb" || settings.type === "postgres" ? settings.mongoDbName ?? undefined : undefined) ??
    DEFAULT_DB_NAME;
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: settings.timeoutMs });
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    throw new Error(`MongoDB at ${redactMongoUri(uri)} cannot be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
  logger.info({ mongo: redactMongoUri(uri), db: dbName }, "one MongoDB client for every agent of the host");
  return { client, db: client.db(dbName), close: () => client.close() };
}
