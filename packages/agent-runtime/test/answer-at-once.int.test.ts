import { randomUUID } from "node:crypto";
import { connectAgent, type TurnResult } from "@switchboard/a2a-client";
import {
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningAgent } from "../src/serve.js";
import { serveNotesAgent } from "./notes-agent.js";

// A client that answers a question the moment it reads it (a button pressed at once, a supervisor
// relaying its user's answer) must have that answer taken. The SDK keeps a paused task's event bus for
// the answer; an answer that joined it while the asking turn was still letting go of the conversation
// had that turn's end close its stream, and ran unheard. The question is now published only once the
// asking turn has let go (turn/turn-events.ts, `settle`). A cancel's end is published the same way.
//
// The lease is read before the answer goes, never after: the answer's own turn takes the same lease
// the moment it arrives, so a read served after it (a busy MongoDB, a slow machine) counts that one.
describe("an answer sent the moment its question arrives", () => {
  const dbName = uniqueDbName("answer-at-once");
  let llm: ScriptedLlm;
  let mongo: MongoClient;
  let agent: RunningAgent;

  beforeAll(async () => {
    [llm, mongo] = await Promise.all([
      startScriptedLlm({
        script: rules(
          [
            {
              lastUser: /add note (.+)/,
              reply: (_r, { match }) => callTool("add_note", { text: match?.[1] }),
            },
            { lastUser: /slow/, reply: callTool("slow_notes", {}) },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("ok"),
        ),
      }),
      MongoClient.connect(testMongoUri()),
    ]);
    agent = await serveNotesAgent({ llm, dbName });
  });
  afterAll(async () => {
    await agent?.close();
    await mongo?.db(dbName).dropDatabase();
    await Promise.all([llm?.close(), mongo?.close()]);
  });

  it("finds the conversation free and is the turn's answer: the change runs and its reply comes back", async () => {
    const connection = await connectAgent(agent.url);
    const locks = mongo.db(dbName).collection("locks_notes");
    for (let round = 0; round < 5; round++) {
      const contextId = `at-once-${randomUUID()}`;
      let answered: Promise<TurnResult> | undefined;
      let heldWhenAsked: number | undefined;
      for await (const event of connection.stream({ text: `add note round ${round}`, contextId })) {
        if (event.kind !== "status" || event.state !== "input-required" || answered) continue;
        heldWhenAsked = await locks.countDocuments({ _id: contextId as never });
        answered = connection.send({ text: "yes", contextId, taskId: event.taskId });
      }
      const result = await answered;
      expect({ round, heldWhenAsked, state: result?.state, text: result?.text }).toMatchObject({
        round,
        heldWhenAsked: 0,
        state: "completed",
        text: expect.stringContaining(`added "round ${round}"`),
      });
    }
  });

  it("finds the conversation free once a cancel returns or its end arrives: the next message goes at once", async () => {
    const connection = await connectAgent(agent.url);
    const locks = mongo.db(dbName).collection("locks_notes");
    const held = () => locks.countDocuments({ _id: contextId as never });
    const contextId = `cancel-at-once-${randomUUID()}`;
    const seen: { canceled?: string; heldWhenCancelReturned?: number; heldWhenEnded?: number } = {};
    let last: string | undefined;
    for await (const event of connection.stream({ text: "slow please", contextId })) {
      if (event.kind !== "status") continue;
      last = event.state;
      if (event.text === "still thinking" && !seen.canceled) {
        seen.canceled = (await connection.cancel(event.taskId)).state;
        seen.heldWhenCancelReturned = await held();
      }
      if (event.state === "canceled") seen.heldWhenEnded = await held();
    }
    expect({ last, ...seen }).toEqual({
      last: "canceled",
      canceled: "canceled",
      heldWhenCancelReturned: 0,
      heldWhenEnded: 0,
    });
    const next = await connection.send({ text: "add note after the cancel", contextId });
    expect({ state: next.state, text: next.text }).toMatchObject({
      state: "input-required",
      text: expect.stringContaining('Add the note "after the cancel"'),
    });
  });
});
