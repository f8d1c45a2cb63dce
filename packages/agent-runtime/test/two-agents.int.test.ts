import { randomUUID } from "node:crypto";
import { createLogger } from "@switchboard/common";
import { rules, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAgent, serveAgent } from "../src/serve.js";
import { clientFor, send, stateOf, statusText } from "./a2a.js";
import { deskAgent } from "./desk-agent.js";
import { notesAgent } from "./notes-agent.js";

describe("two different agents served in one process", () => {
  const dbName = uniqueDbName("two-agents");
  let llm: ScriptedLlm;
  let notes: RunningAgent;
  let desk: RunningAgent;
  let notesClosed = false;

  beforeAll(async () => {
    llm = await startScriptedLlm({ script: rules([], say("Done.")) });
    const serve = (definition: typeof deskAgent, name: string) =>
      serveAgent(definition, {
        env: { PORT: "0", HOST: "127.0.0.1", AGENT_NAME: name, ...testMongoEnv(dbName), ...llm.env },
        logger: createLogger({ level: "silent" }),
      });
    [notes, desk] = await Promise.all([serve(notesAgent([]), "notes"), serve(deskAgent, "desk")]);
  });
  afterAll(async () => {
    await Promise.all([notesClosed ? undefined : notes?.close(), desk?.close()]);
    await llm?.close();
  });

  it("each answers a turn on one shared conversation id, in its own collections, and stops alone", async () => {
    const contextId = `shared-${randomUUID()}`;
    for (const agent of [notes, desk]) {
      const task = await send(await clientFor(agent.url), "hello", contextId);
      expect(stateOf(task)).toBe("TASK_STATE_COMPLETED");
      expect(statusText(task)).toBe("Done.");
    }
    const mongo = await MongoClient.connect(testMongoUri());
    try {
      const db = mongo.db(dbName);
      for (const name of ["notes", "desk"]) {
        expect(
          await db.collection(`checkpoints_${name}`).countDocuments({ thread_id: contextId }),
        ).toBeGreaterThan(0);
        expect(await db.collection(`tasks_${name}`).countDocuments({ contextId })).toBe(1);
      }
    } finally {
      await mongo.close();
    }
    // Each serves its own metrics: the model calls of its own turn only.
    const calls = async (agent: RunningAgent, name: string) =>
      (await (await fetch(`${agent.url}/metrics`)).text()).match(
        new RegExp(`switchboard_model_calls_total\\{agent="${name}"[^}]*\\} (\\d+)`),
      )?.[1];
    await expect.poll(() => calls(notes, "notes")).toBe("1");
    expect(await calls(desk, "notes")).toBeUndefined();
    expect(await calls(desk, "desk")).toBe("1");
    // And its own checkpointer's reads and writes, labelled by agent: the other's are not on its page.
    const checkpointCounts = async (agent: RunningAgent, kind: "write" | "read") => {
      const page = await (await fetch(`${agent.url}/metrics`)).text();
      const counts: Record<string, number> = {};
      const line = new RegExp(
        `^switchboard_checkpoint_${kind}_duration_seconds_count\\{([^}]*)\\} (\\d+)$`,
        "gm",
      );
      for (const [, labels, value] of page.matchAll(line)) {
        const agent = /agent="([^"]*)"/.exec(labels ?? "")?.[1] ?? "(no agent label)";
        counts[agent] = (counts[agent] ?? 0) + Number(value);
      }
      return counts;
    };
    for (const [agent, name] of [
      [notes, "notes"],
      [desk, "desk"],
    ] as const) {
      for (const kind of ["write", "read"] as const) {
        const counts = await checkpointCounts(agent, kind);
        expect(Object.keys(counts), `${name}'s checkpoint ${kind}s`).toEqual([name]);
        expect(counts[name]).toBeGreaterThan(0);
      }
    }

    // Closing one leaves the other serving, with its checkpoint store.
    await notes.close();
    notesClosed = true;
    expect((await fetch(`${desk.url}/ready`)).status).toBe(200);
    const again = await send(await clientFor(desk.url), "still there?", contextId);
    expect(stateOf(again)).toBe("TASK_STATE_COMPLETED");
  });
});
