// biome-ignore-all lint/suspicious/noTemplateCurlyInString: auth values refer to variables as ${VAR}, on purpose.
import { join } from "node:path";
import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import { type AgentTool, type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { type FakePetstore, startFakePetstore } from "@switchboard-testing/fake-vendors";
import {
  callTool,
  replyFromToolResult,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiTools } from "../src/index.js";

const SPEC = join(
  import.meta.dirname,
  "..",
  "..",
  "..",
  "testing",
  "fake-vendors",
  "specs",
  "swagger-petstore",
  "openapi.yaml",
);

// An agent whose only tools are the Petstore description's, served over A2A as a host serves a
// configured agent's, with the scripted model calling what the user names.
describe("OpenAPI tools in an agent's turn", () => {
  let store: FakePetstore;
  let llm: ScriptedLlm;
  let agent: RunningAgent;
  let client: AgentConnection;

  beforeAll(async () => {
    [store, llm] = await Promise.all([
      startFakePetstore(),
      startScriptedLlm({
        script: rules(
          [
            {
              lastUser: /^call (\w+)(?: (.+))?$/s,
              reply: (_request, { match }) =>
                callTool(match?.[1] ?? "", match?.[2] ? JSON.parse(match[2]) : {}),
            },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("Tell me which operation to call."),
        ),
      }),
    ]);
    const logger = createLogger({ level: "silent" });
    const env = { PETSTORE_KEY: store.apiKey };
    const api = await openApiTools({
      document: SPEC,
      baseUrl: store.apiUrl,
      env,
      auth: { api_key: "${PETSTORE_KEY}" },
      logger,
    });
    const tools: AgentTool[] = api.tools({ prefix: "petstore_" });
    agent = await serveAgent(
      {
        name: "pets",
        title: "Pets",
        description: "The Petstore through its OpenAPI description.",
        systemPrompt: "You work the Petstore with your tools.",
        skills: [{ id: "pets", name: "Pets", description: "Pets", tags: ["pets"], examples: ["list pets"] }],
        tools: () => tools,
      },
      {
        env: {
          PORT: "0",
          HOST: "127.0.0.1",
          AGENT_NAME: "pets",
          LANGGRAPH_CHECKPOINT_TYPE: "memory",
          ...llm.env,
        },
        logger,
      },
    );
    client = await connectAgent(agent.url);
  });
  afterAll(async () => {
    await agent?.close();
    await Promise.all([store?.close(), llm?.close()]);
  });

  it("a read answers at once", async () => {
    const result = await client.send({ text: 'call petstore_get_pet_by_id {"petId":1}' });
    expect(result.state).toBe("completed");
    expect(result.text).toContain('"name": "Rex"');
  });

  it("a create asks first, and runs once after yes", async () => {
    const before = store.changes.length;
    const asked = await client.send({
      text: 'call petstore_add_pet {"body":{"name":"Nemo","photoUrls":[],"status":"available"}}',
    });
    expect(asked.state).toBe("input-required");
    expect(asked.question).toContain("(POST /pet)");
    expect(store.changes.length).toBe(before);

    const done = await client.send({
      text: "",
      contextId: asked.contextId,
      taskId: asked.taskId,
      decision: "approve",
      ...(asked.argsHashes ? { argsHashes: asked.argsHashes } : {}),
    });
    expect(done.state).toBe("completed");
    expect(done.text).toContain('"name": "Nemo"');
    expect(store.changes.slice(before).map(({ operation }) => operation)).toEqual(["addPet"]);
  });

  it("a declined delete changes nothing", async () => {
    const before = store.changes.length;
    const asked = await client.send({ text: 'call petstore_delete_pet {"petId":2}' });
    expect(asked.state).toBe("input-required");
    expect(asked.question).toContain("(DELETE /pet/2)");
    const declined = await client.send({
      text: "",
      contextId: asked.contextId,
      taskId: asked.taskId,
      decision: "decline",
    });
    expect(declined.state).toBe("completed");
    expect(store.changes.length).toBe(before);
    expect(store.pets.some((pet) => pet.id === 2)).toBe(true);
  });
});
