import type { Logger } from "@switchboard/common";
import { redactMongoUri, resolveCheckpointer } from "@switchboard/utils";
import { type Db, MongoClient } from "mongodb";

/**
 * One MongoDB client for the whole host, from the settings every agent reads (MONGODB_URI, the
 * database name): each agent keeps its own collections on it, and the definitions CAIPE's.
 * Undefined when the host runs without MongoDB (checkpoints in memory, or PostgreSQL without it).
 */
export async function openSharedMongo(
  env: NodeJS.ProcessEnv,
  agentName: string,
  logger: Logger,
): Promise<{ client: MongoClient; db: Db; close(): Promise<void> } | undefined> {
  const resolved = resolveCheckpointer({ env, agentName, logger });
  const target =
    resolved.backend === "mongodb"
      ? { uri: resolved.uri, dbName: resolved.dbName, timeoutMs: resolved.settings.timeoutMs }
      : resolved.backend === "postgres" && resolved.settings.mongoUri
        ? {
            uri: resolved.settings.mongoUri,
            dbName: resolved.settings.mongoDbName ?? "switchboard",
            timeoutMs: resolved.settings.timeoutMs,
          }
        : undefined;
  if (!target) return undefined;
  const client = new MongoClient(target.uri, { serverSelectionTimeoutMS: target.timeoutMs });
  try {
    await client.connect();
  } catch (error) {
    await client.close();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`MongoDB at ${redactMongoUri(target.uri)} cannot be reached (MONGODB_URI): ${reason}`);
  }
  logger.info(
    { mongo: redactMongoUri(target.uri), db: target.dbName },
    "one MongoDB client for every agent of the host",
  );
  return { client, db: client.db(target.dbName), close: () => client.close() };
}
