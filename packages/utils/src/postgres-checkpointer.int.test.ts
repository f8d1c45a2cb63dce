import { createLogger } from "@switchboard/common";
import { startPostgres, type TestPostgres } from "@switchboard-testing/test-postgres";
import pg from "pg";
import * as vitest from "vitest";
import { closeCheckpointer, getCheckpointer, getCheckpointerInfo, openCheckpointer } from "./checkpointer.js";
import { postgresSchema } from "./postgres-checkpointer.js";

// LANGGRAPH_CHECKPOINT_TYPE=postgres on a real PostgreSQL (Debian's): LangGraph's own conformance suite
// for checkpoint savers against what getCheckpointer() returns, each agent in its own schema, and
// retention deleting whole conversations.

Object.assign(globalThis, vitest);
const { validate } = await import("@langchain/langgraph-checkpoint-validation");
const { afterAll, beforeAll, describe, expect, it } = vitest;

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await closeCheckpointer();
  await server?.stop();
});

const silent = createLogger({ level: "silent" });
const envFor = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  LANGGRAPH_CHECKPOINT_TYPE: "postgres",
  LANGGRAPH_CHECKPOINT_POSTGRES_DSN: server.dsn,
  ...extra,
});

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: server.dsn });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

let run = 0;
validate({
  checkpointerName: "getCheckpointer() → PostgresSaver",
  async createCheckpointer() {
    run += 1;
    return getCheckpointer({ agentName: `validation-${run}`, env: envFor(), logger: silent });
  },
  async destroyCheckpointer() {
    await closeCheckpointer();
    await sql(`drop schema if exists "${postgresSchema(`validation-${run}`)}" cascade`);
  },
});

describe("LANGGRAPH_CHECKPOINT_TYPE=postgres", () => {
  it("keeps each agent's conversations in its own schema, named like its collections", async () => {
    const jira = await openCheckpointer({ agentName: "jira", env: envFor(), logger: silent });
    const github = await openCheckpointer({ agentName: "github", env: envFor(), logger: silent });
    try {
      expect(jira.info).toMatchObject({ backend: "postgres", schema: "checkpoints_jira" });
      const config = { configurable: { thread_id: "shared-context", checkpoint_ns: "" } };
      await jira.saver.put(config, checkpoint("c1"), { source: "input", step: 0, parents: {} }, {});
      expect(await jira.saver.getTuple(config)).toBeDefined();
      // The same conversation id in another agent's schema is another conversation.
      expect(await github.saver.getTuple(config)).toBeUndefined();
      const tables = await sql<{ table_schema: string }>(
        "select distinct table_schema from information_schema.tables where table_name = 'checkpoints'",
      );
      expect(tables.map((row) => row.table_schema)).toEqual(
        expect.arrayContaining(["checkpoints_jira", "checkpoints_github"]),
      );
    } finally {
      await jira.close();
      await github.close();
    }
  });

  it("deletes a conversation whole once its newest checkpoint is older than the retention", async () => {
    const old = { configurable: { thread_id: "old", checkpoint_ns: "" } };
    const fresh = { configurable: { thread_id: "fresh", checkpoint_ns: "" } };
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const before = await openCheckpointer({ agentName: "retention", env: envFor(), logger: silent });
    await before.saver.put(old, checkpoint("o1", twoHoursAgo), { source: "input", step: 0, parents: {} }, {});
    await before.saver.put(fresh, checkpoint("f1"), { source: "input", step: 0, parents: {} }, {});
    await before.close();
    // An agent started with a one-hour retention sweeps at start-up.
    const handle = await openCheckpointer({
      agentName: "retention",
      env: envFor({ LANGGRAPH_CHECKPOINT_TTL_MINUTES: "60" }),
      logger: silent,
    });
    try {
      expect(handle.info).toMatchObject({ ttlSeconds: 3600 });
      await vitest.vi.waitFor(async () => expect(await handle.saver.getTuple(old)).toBeUndefined(), {
        timeout: 10_000,
      });
      expect(await handle.saver.getTuple(fresh)).toBeDefined();
    } finally {
      await handle.close();
    }
  });

  it("refuses a missing DSN and an unreachable server with messages that name the setting, not the password", async () => {
    await expect(
      getCheckpointerInfo({
        agentName: "jira",
        env: { LANGGRAPH_CHECKPOINT_TYPE: "postgres" },
        logger: silent,
      }),
    ).rejects.toThrow(/LANGGRAPH_CHECKPOINT_TYPE=postgres needs LANGGRAPH_CHECKPOINT_POSTGRES_DSN/);
    const unreachable = envFor({
      LANGGRAPH_CHECKPOINT_POSTGRES_DSN: "postgresql://langgraph:hunter2secret@127.0.0.1:1/langgraph",
      LANGGRAPH_CHECKPOINT_MONGODB_TIMEOUT_MS: "2000",
    });
    const failure = openCheckpointer({ agentName: "jira", env: unreachable, logger: silent });
    await expect(failure).rejects.toThrow(
      /Cannot use PostgreSQL at postgresql:\/\/langgraph:\*\*\*\*@127\.0\.0\.1:1/,
    );
    await expect(failure).rejects.not.toThrow(/hunter2secret/);
  });

  it("refuses LANGGRAPH_CHECKPOINT_TYPE=redis at start-up rather than run an untested saver", async () => {
    await expect(
      getCheckpointerInfo({ agentName: "jira", env: { LANGGRAPH_CHECKPOINT_TYPE: "redis" }, logger: silent }),
    ).rejects.toThrow(/redis is not supported: .*RediSearch and RedisJSON/);
  });
});

function checkpoint(id: string, ts = new Date().toISOString()) {
  return { v: 4, id, ts, channel_values: {}, channel_versions: {}, versions_seen: {} };
}
