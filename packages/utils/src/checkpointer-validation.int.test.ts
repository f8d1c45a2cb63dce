import { testMongoUri, uniqueDbName } from "@switchboard/test-mongo/inject";
import { MongoClient } from "mongodb";
import * as vitest from "vitest";
import { closeCheckpointer, getCheckpointer } from "./checkpointer.js";
import { createLogger } from "./logger.js";

// LangGraph's own conformance suite for checkpoint savers, run against what getCheckpointer()
// returns: the upstream MongoDBSaver on the project's one MongoDB driver (7), with our wrappers.
let dbName = "";

/**
 * Cases the upstream MongoDBSaver (1.4.1) itself fails, with or without Switchboard's wrappers: it
 * stores every channel value on each put, and does not migrate pending sends of pre-v4 checkpoints.
 * They run as expected failures, so this file turns red the day upstream fixes them.
 */
const UPSTREAM_GAPS = new Set([
  "should only store channel_values that have changed (based on newVersions)",
  "should migrate pending sends",
]);
const it = new Proxy(vitest.it, {
  apply: (target, self, args: Parameters<typeof vitest.it>) =>
    UPSTREAM_GAPS.has(String(args[0])) ? vitest.it.fails(...args) : Reflect.apply(target, self, args),
});

// The suite is written for vitest's globals mode; this package imports them explicitly instead.
Object.assign(globalThis, vitest, { it, test: it });
const { validate } = await import("@langchain/langgraph-checkpoint-validation");

validate({
  checkpointerName: "getCheckpointer() → MongoDBSaver",
  async createCheckpointer() {
    dbName = uniqueDbName("validation");
    return getCheckpointer({
      agentName: "validation",
      env: { MONGODB_URI: testMongoUri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName },
      logger: createLogger({ level: "silent" }),
    });
  },
  async destroyCheckpointer() {
    await closeCheckpointer();
    const client = await MongoClient.connect(testMongoUri());
    await client
      .db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await client.close();
  },
});
