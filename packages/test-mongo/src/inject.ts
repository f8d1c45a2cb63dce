import { randomUUID } from "node:crypto";
import { inject } from "vitest";

export const MONGO_URI_KEY = "switchboardMongoUri";

/** The URI of the MongoDB the test run talks to (see global-setup). */
export function testMongoUri(): string {
  const uri = (inject as (key: string) => unknown)(MONGO_URI_KEY);
  if (typeof uri !== "string") {
    throw new Error("No test MongoDB: add `mongo: true` to this package's defineTestConfig().");
  }
  return uri;
}

/** A database name no other test file uses, so suites can run in parallel on one server. */
export function uniqueDbName(prefix = "test"): string {
  return `${prefix}_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

/** The settings that put an agent's checkpoints in database `dbName` of the test MongoDB. */
export function testMongoEnv(dbName: string): Record<string, string> {
  return { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName };
}
