import { randomUUID } from "node:crypto";
import { describe, inject, it } from "vitest";

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

/**
 * The key test agents link their audit lines with (a fixed random value, for tests only): an agent
 * that keeps its audit trail in MongoDB under AUTH_MODE=jwt needs one to start.
 */
export const TEST_AUDIT_HMAC_KEY = "5f0c9a1e7b3d48c2a6e19f04d7b2c8e3914a6d0f2b7e5c1a8d3f60b9e4c27a15";

/**
 * The settings that put an agent's checkpoints (and audit trail) in database `dbName` of the test
 * MongoDB, with the audit key the trail is linked with there.
 */
export function testMongoEnv(dbName: string): Record<string, string> {
  return {
    MONGODB_URI: testMongoUri(),
    LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: dbName,
    AUDIT_HMAC_KEY: TEST_AUDIT_HMAC_KEY,
  };
}

export const DOCUMENTDB_URI_KEY = "documentDbUri";
export const DOCUMENTDB_STATUS_KEY = "documentDbStatus";

/**
 * Whether the run has a DocumentDB (see documentdb-setup): `absent` when its scripts are not beside
 * the repository (tests skip), `failed` when they are but it did not start (tests fail).
 */
export type DocumentDbStatus =
  | { state: "running"; uri: string }
  | { state: "absent"; reason: string }
  | { state: "failed"; reason: string };

/** The DocumentDB of this run, or why there is none. */
export function testDocumentDb(): DocumentDbStatus {
  const status = (inject as (key: string) => unknown)(DOCUMENTDB_STATUS_KEY) as DocumentDbStatus | undefined;
  return (
    status ?? {
      state: "failed",
      reason:
        "this package's vitest config has no DocumentDB global setup: add " +
        '"@switchboard-testing/test-mongo/documentdb-setup" to test.globalSetup',
    }
  );
}

/** The URI of this run's DocumentDB; undefined when there is none (see testDocumentDb for why). */
export function testDocumentDbUri(): string | undefined {
  const uri = (inject as (key: string) => unknown)(DOCUMENTDB_URI_KEY);
  return typeof uri === "string" ? uri : undefined;
}

/**
 * A describe() that runs against DocumentDB. Without DocumentDB's scripts beside the repository its
 * tests are reported skipped, the reason in the suite's name; when the scripts are there but
 * DocumentDB did not start, one test fails with start.sh's output, so a broken install is never a
 * quiet skip. `body` gets the URI as a function: it may only be called inside hooks and tests.
 */
export function describeOnDocumentDb(name: string, body: (uri: () => string) => void): void {
  const status = testDocumentDb();
  if (status.state === "running") {
    describe(name, () => body(() => status.uri));
    return;
  }
  if (status.state === "absent") {
    describe.skip(`${name} [skipped: ${status.reason}]`, () =>
      body(() => {
        throw new Error(`No DocumentDB: ${status.reason}`);
      }));
    return;
  }
  describe(name, () => {
    it("has a DocumentDB to run against", () => {
      throw new Error(`DocumentDB did not start: ${status.reason}`);
    });
  });
}
