import { randomUUID } from "node:crypto";
import { connectAgent } from "@switchboard/a2a-client";
import { freePort } from "@switchboard-testing/test-agents";
import { type ScriptedLlm, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo, type TestMongo } from "@switchboard-testing/test-mongo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningAgent } from "../src/serve.js";
import { serveNotesAgent } from "./notes-agent.js";

// MongoDB goes away mid-conversation and comes back: the agent says so, never exits, and recovers
// without a restart. (A server of its own: stopping the shared test MongoDB would break other files.)
describe("MongoDB outage", () => {
  let llm: ScriptedLlm;
  let mongo: TestMongo;
  let port: number;
  let agent: RunningAgent;

  beforeAll(async () => {
    port = await freePort();
    [llm, mongo] = await Promise.all([
      startScriptedLlm({ script: () => say("noted") }),
      startTestMongo({ port }),
    ]);
    agent = await serveNotesAgent({
      llm,
      env: { MONGODB_URI: mongo.uri, LANGGRAPH_CHECKPOINT_MONGODB_TIMEOUT_MS: "1000" },
    });
  });
  afterAll(async () => {
    await agent.close();
    await Promise.all([llm.close(), mongo.stop()]);
  });

  it("fails turns clearly and reports not ready while MongoDB is down, then recovers by itself", async () => {
    const connection = await connectAgent(agent.url);
    const contextId = `outage-${randomUUID()}`;
    expect((await connection.send({ text: "hello", contextId })).state).toBe("completed");

    await mongo.stop();
    expect((await fetch(`${agent.url}/ready`)).status).toBe(503);
    const during = await connection.send({ text: "are you there?", contextId }).then(
      (result) => `${result.state}: ${result.text}`,
      (error: Error) => `error: ${error.message}`,
    );
    expect(during).toMatch(/MongoDB/);
    expect(during).not.toMatch(/\n\s+at /); // no stack trace
    expect((await fetch(`${agent.url}/health`)).status).toBe(200);

    mongo = await startTestMongo({ port });
    await expect.poll(async () => (await fetch(`${agent.url}/ready`)).status, { timeout: 15_000 }).toBe(200);
    const after = await connection.send({ text: "back again", contextId });
    expect(after.state).toBe("completed");
  });
});
