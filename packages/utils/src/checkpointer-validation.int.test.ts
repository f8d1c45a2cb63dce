import { createLogger } from "@switchboard/common";
import { describeOnDocumentDb, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import * as vitest from "vitest";
import { closeCheckpointer, getCheckpointer } from "./checkpointer.js";

// LangGraph's own conformance suite for checkpoint savers, run against what getCheckpointer()
// returns: Switchboard's MongoCheckpointSaver on the project's one MongoDB driver (7), on the test
// MongoDB and on DocumentDB (real indexes; skipped without ../shared/tools/documentdb).

// The suite is written for vitest's globals mode; this package imports them explicitly instead.
Object.assign(globalThis, vitest);
const { validate } = await import("@langchain/langgraph-checkpoint-validation");

function conformance(uri: () => string): void {
  let dbName = "";
  validate({
    checkpointerName: "getCheckpointer() → MongoCheckpointSaver",
    async createCheckpointer() {
      dbName = uniqueDbName("validation");
      return getCheckpointer({
        agentName: "validation",
        env: { MONGODB_URI: uri(), LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName },
        logger: createLogger({ level: "silent" }),
      });
    },
    async destroyCheckpointer() {
      await closeCheckpointer();
      const client = await MongoClient.connect(uri());
      await client
        .db(dbName)
        .dropDatabase()
        .catch(() => undefined);
      await client.close();
    },
  });
}

vitest.describe("on the test MongoDB", () => conformance(testMongoUri));
describeOnDocumentDb("on DocumentDB", conformance);
