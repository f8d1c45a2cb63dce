import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { ClientFactory } from "@a2a-js/sdk/client";
import { createLogger } from "@switchboard/common";
import {
  type ChatCompletionRequest,
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { uniqueDbName } from "@switchboard-testing/test-mongo";
import { startPostgres, type TestPostgres } from "@switchboard-testing/test-postgres";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../src/memory/postgres-store.js";
import type { RunningAgent } from "../src/serve.js";
import { send, statusText } from "./a2a.js";
import { subjectKey, systemOf, userTokens } from "./memory-users.js";
import { serveNotesAgent } from "./notes-agent.js";

// LANGGRAPH_STORE_TYPE=postgres (CAIPE's setting) on a real PostgreSQL (Debian's): the notes agent's
// long-term memory in LangGraph's PostgresStore, beside its checkpoints there, through whole turns.

const SECRET = "memory-postgres-test-secret-32-chars!!";
const sign = userTokens(SECRET);

describe("LANGGRAPH_STORE_TYPE=postgres: long-term memory in LangGraph's PostgresStore", () => {
  const dbName = uniqueDbName("memory-postgres");
  let postgres: TestPostgres;
  let llm: ScriptedLlm;
  let agent: RunningAgent | undefined;
  const tokens: Record<string, string> = {};
  const logLines: string[] = [];
  const logger = createLogger({
    level: "info",
    destination: new Writable({
      write(chunk, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    }),
  });

  const start = (env: Record<string, string> = {}) =>
    serveNotesAgent({
      llm,
      dbName,
      logger,
      env: {
        AUTH_MODE: "jwt",
        AUTH_JWT_SECRET: SECRET,
        AUTH_ISSUER: "switchboard-test",
        AUTH_AUDIENCE: "switchboard",
        ...env,
      },
    });
  // As a CAIPE operator's file has it: checkpoints and the store both on PostgreSQL (tasks on MongoDB).
  const onPostgres = () => ({
    LANGGRAPH_CHECKPOINT_TYPE: "postgres",
    LANGGRAPH_CHECKPOINT_POSTGRES_DSN: postgres.dsn,
    LANGGRAPH_STORE_TYPE: "postgres",
    LANGGRAPH_STORE_POSTGRES_DSN: postgres.dsn,
  });
  const say_ = async (user: string, text: string) => {
    const client = await new ClientFactory().createFromUrl((agent as RunningAgent).url);
    const task = await send(client, text, `ctx-${randomUUID()}`, "", {
      serviceParameters: { Authorization: `Bearer ${tokens[user]}` },
    });
    return statusText(task);
  };
  /** What the model was shown (its system prompt) for `text`, asked by `user` in a new conversation. */
  const recalledFor = async (user: string, text: string) => {
    const at = llm.requests.length;
    await say_(user, text);
    return systemOf(llm.requests[at] as ChatCompletionRequest);
  };
  const http = async (user: string, method: string, path: string) => {
    const response = await fetch(`${(agent as RunningAgent).url}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens[user]}` },
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const rows = async (namespacePath: string) => {
    const client = new pg.Client({ connectionString: postgres.dsn });
    await client.connect();
    try {
      const result = await client.query<{ text: string }>(
        `select value->>'text' as text from "store_notes".store where namespace_path = $1 order by 1`,
        [namespacePath],
      );
      return result.rows.map((row) => row.text);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    [postgres, llm] = await Promise.all([
      startPostgres(),
      startScriptedLlm({
        script: rules(
          [
            {
              lastUser: /^remember that (.+?) \(topic: (.+)\)$/i,
              reply: (_request, { match }) => callTool("remember", { memory: match?.[1], topic: match?.[2] }),
            },
            { afterTool: "remember", reply: replyFromToolResult((results) => results[0]?.content ?? "") },
          ],
          say("ok"),
        ),
      }),
    ]);
    for (const user of ["alice", "bob"]) tokens[user] = await sign(user);
  }, 120_000);
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });
  afterAll(async () => {
    await llm?.close();
    await postgres?.stop();
  });

  it("recalls a fact in a later conversation and after a restart, for its user only; forget me erases it", async () => {
    agent = await start(onPostgres());
    expect(await say_("alice", "remember that our Jira project is PLAT (topic: jira project)")).toBe(
      "I will remember that.",
    );
    await say_("bob", "remember that our Jira project is OPS (topic: jira project)");
    const aliceSaw = await recalledFor("alice", "which Jira project is ours?");
    expect(aliceSaw).toContain("our Jira project is PLAT");
    expect(aliceSaw).not.toContain("OPS");
    // Kept in the agent's own schema, under each user's key.
    expect(await rows(`memories:${subjectKey("alice")}`)).toEqual(["our Jira project is PLAT"]);

    // A restart: what was remembered is read back from PostgreSQL.
    await agent.close();
    agent = await start(onPostgres());
    const afterRestart = await recalledFor("alice", "which Jira project is ours?");
    expect(afterRestart).toContain("our Jira project is PLAT");
    expect(afterRestart).not.toContain("OPS");
    const bobSaw = await recalledFor("bob", "which Jira project is ours?");
    expect(bobSaw).toContain("our Jira project is OPS");
    expect(bobSaw).not.toContain("PLAT");

    // Bob cannot erase Alice's memory by its id; forget me erases all of Alice's, and only hers.
    const [memory] = (await http("alice", "GET", "/memories")).body.memories as Array<{ id: string }>;
    expect((await http("bob", "DELETE", `/memories/${memory?.id}`)).status).toBe(404);
    expect((await http("alice", "DELETE", "/me")).body).toMatchObject({ agent: "notes", memories: 1 });
    expect(await rows(`memories:${subjectKey("alice")}`)).toEqual([]);
    expect(await rows(`memories:${subjectKey("bob")}`)).toEqual(["our Jira project is OPS"]);
    expect(await recalledFor("alice", "which Jira project is ours?")).not.toContain("Jira project is");
  });

  it("keeps going when the server drops its idle connections", async () => {
    agent = await start(onPostgres());
    await say_("alice", "remember that deploys go out on Tuesdays (topic: deploy day)");
    const admin = new pg.Client({ connectionString: postgres.dsn });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'switchboard-notes-store'",
      );
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    expect(await recalledFor("alice", "when do deploys go out?")).toContain("deploys go out on Tuesdays");
  });

  it("never reads one key's memories under another key that begins with it", async () => {
    const handle = await openPostgresStore({
      agent: `prefix-${randomUUID().slice(0, 8)}`,
      dsn: postgres.dsn,
      dsnVariable: "LANGGRAPH_STORE_POSTGRES_DSN",
      ttlMinutes: 0,
      logger: createLogger({ level: "silent" }),
    });
    try {
      const { store } = handle;
      if (!store) throw new Error("no store");
      await store.put(["memories", "ab"], "k", { text: "ab's" });
      await store.put(["memories", "abc"], "k", { text: "abc's" });
      expect((await store.search(["memories", "ab"])).map((item) => item.value.text)).toEqual(["ab's"]);
      const [found] = await store.batch([{ namespacePrefix: ["memories", "ab"], limit: 10, offset: 0 }]);
      expect(found?.map((item) => item.value.text)).toEqual(["ab's"]);
      // A ":" would make one label read as two.
      await expect(store.put(["memories", "ab:c"], "k", { text: "x" })).rejects.toThrow(
        /may not contain ":"/,
      );
    } finally {
      await handle.close();
    }
  });

  it("names LANGGRAPH_STORE_TYPE=redis at start-up and ignores it, using MongoDB instead", async () => {
    const from = logLines.length;
    agent = await start({
      LANGGRAPH_STORE_TYPE: "redis",
      LANGGRAPH_STORE_REDIS_URL: "redis://:hunter2@redis:6379",
    });
    const lines = logLines.slice(from).filter((line) => line.includes("LANGGRAPH_STORE_TYPE=redis"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: "warn",
      msg: expect.stringMatching(/is ignored .*Using MongoDB \(.+\.store_notes\) instead/),
    });
    expect(lines[0]).not.toContain("hunter2");
    // Memory works, on MongoDB.
    await say_("alice", "remember that the on-call rota is in PagerDuty (topic: on-call)");
    expect(await recalledFor("alice", "where is the on-call rota?")).toContain(
      "on-call rota is in PagerDuty",
    );
  });

  it("stops the start with the setting to fix when PostgreSQL cannot be reached", async () => {
    const started = start({
      LANGGRAPH_STORE_TYPE: "postgres",
      POSTGRES_DSN: "postgresql://langgraph:s3cret-pw@127.0.0.1:1/langgraph",
    });
    await expect(started).rejects.toThrow(
      /Cannot use PostgreSQL at .*127\.0\.0\.1:1.* \(from POSTGRES_DSN\) for the notes agent's long-term store: .*correct POSTGRES_DSN/,
    );
    await expect(started).rejects.not.toThrow(/s3cret-pw/);
  });
});
