import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { tool } from "@langchain/core/tools";
import { connectAgent } from "@switchboard/a2a-client";
import { createLogger } from "@switchboard/common";
import { SlowSaver } from "@switchboard-testing/test-agents";
import { callTool, type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { testMongoEnv, uniqueDbName } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentDefinition } from "../src/definition.js";
import { type RunningAgent, serveAgent } from "../src/serve.js";

/** An agent whose one tool records, when it runs, what its conversation had stored by then. */
function shelfAgent(saver: SlowSaver, ran: string[][]): AgentDefinition {
  return {
    name: "shelf",
    title: "Shelf",
    description: "Puts things on a shelf.",
    systemPrompt: "You put things on the shelf.",
    skills: [{ id: "shelf", name: "Shelf", description: "Shelving", tags: ["shelf"], examples: ["shelve"] }],
    tools: () => [
      {
        tool: tool(
          async () => {
            ran.push([...saver.stored]);
            return "on the shelf";
          },
          { name: "shelve", description: "Put it on the shelf", schema: z.object({}) },
        ),
      },
    ],
  };
}

// The graph stores each step while the next runs (durability "async"): the model is asked while the
// user's message is being stored, but no tool runs before the call that asked for it is stored, and a
// step that cannot be stored ends the turn before anything acts on it.
describe("a turn's writes and what waits for them", () => {
  const saver = new SlowSaver();
  const ran: string[][] = [];
  /** What the conversation had stored when each model call arrived. */
  const asked: string[][] = [];
  /** Called by the model's first request: writes held until then go on. */
  let modelAsked: (() => void) | undefined;
  let llm: ScriptedLlm;
  let agent: RunningAgent;

  beforeAll(async () => {
    llm = await startScriptedLlm({
      script: (request) => {
        asked.push([...saver.stored]);
        modelAsked?.();
        return request.messages.some((message) => message.role === "tool")
          ? say("shelved")
          : callTool("shelve", {});
      },
    });
    agent = await serveAgent(shelfAgent(saver, ran), {
      env: {
        PORT: "0",
        HOST: "127.0.0.1",
        ...testMongoEnv(uniqueDbName("barrier")),
        ...llm.env,
        LANGGRAPH_STORE_TYPE: "none",
      },
      checkpointer: saver,
      logger: createLogger({ level: "silent" }),
    });
  });
  afterAll(async () => {
    await agent.close();
    await llm.close();
  });

  it("asks the model while the message is stored, and runs a tool only once its call is", async () => {
    // The turn's writes wait for the model to be asked (or 10 s: a model call that waited for them
    // would then see them stored, and fail the first check).
    saver.holdUntil = Promise.race([
      new Promise<void>((resolve) => {
        modelAsked = resolve;
      }),
      sleep(10_000),
    ]);
    const connection = await connectAgent(agent.url);
    const result = await connection.send({ text: "shelve it", contextId: randomUUID() });
    saver.holdUntil = undefined;
    expect(result.state).toBe("completed");
    expect(result.text).toContain("shelved");

    // The first model call went out before anything of the turn was stored.
    expect(asked[0]).toEqual([]);
    // The tool ran after the step that called it was stored.
    expect(ran).toHaveLength(1);
    expect(ran[0]).toContain("writes calling shelve");
    // And the answer was complete only once the whole turn was stored.
    expect(saver.stored.at(-1)).toBe("checkpoint");
  });

  it("ends the turn with the store's error, the tool never run, when the call cannot be stored", async () => {
    ran.length = 0;
    saver.failToolCallWrites = new Error("the checkpoint store is unreachable");
    try {
      const connection = await connectAgent(agent.url);
      const result = await connection.send({ text: "shelve this too", contextId: randomUUID() });
      expect(result.state).toBe("failed");
      expect(result.text).toContain("the checkpoint store is unreachable");
      expect(ran).toEqual([]);
    } finally {
      saver.failToolCallWrites = undefined;
    }
  });
});
