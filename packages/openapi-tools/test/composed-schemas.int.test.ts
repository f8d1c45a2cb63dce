import { type AgentConnection, connectAgent } from "@switchboard/a2a-client";
import { type RunningAgent, serveAgent } from "@switchboard/agent-runtime";
import { createLogger } from "@switchboard/common";
import { startOpenApiFake, type VendorServer } from "@switchboard-testing/fake-vendors";
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
import { exampleArgumentsOf, operationsOf, readDescription } from "../src/reading.js";

// A description as real ones are written (3.1, bodies and answers composed with allOf, a choice with
// a discriminator, readOnly ids, writeOnly secrets, nullable fields), its tools called with the
// arguments openapi-tools makes for them, against the fake made from the same description.
const DESCRIPTION = {
  openapi: "3.1.0",
  info: { title: "Inventory", version: "1.0.0" },
  servers: [{ url: "/" }],
  paths: {
    "/widgets": {
      post: {
        operationId: "createWidget",
        summary: "Create a widget",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Widget" } } },
        },
        responses: {
          "201": {
            description: "Created",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Widget" } } },
          },
          default: { description: "error", content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    },
    "/widgets/{widgetId}": {
      get: {
        operationId: "getWidget",
        parameters: [
          { name: "widgetId", in: "path", required: true, schema: { type: "string", format: "uuid" } },
        ],
        responses: {
          "200": {
            description: "The widget",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Widget" } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Resource: {
        type: "object",
        required: ["id", "created_at"],
        properties: {
          id: { type: "string", format: "uuid", readOnly: true },
          created_at: { type: "string", format: "date-time", readOnly: true },
        },
      },
      Widget: {
        allOf: [
          { $ref: "#/components/schemas/Resource" },
          {
            type: "object",
            required: ["name", "part", "secret"],
            properties: {
              name: { type: "string", minLength: 3, pattern: "^[a-z][a-z0-9-]*$" },
              owner: { type: ["string", "null"] },
              secret: { type: "string", writeOnly: true, minLength: 8 },
              part: {
                oneOf: [{ $ref: "#/components/schemas/Gear" }, { $ref: "#/components/schemas/Spring" }],
                discriminator: {
                  propertyName: "kind",
                  mapping: { gear: "#/components/schemas/Gear", spring: "#/components/schemas/Spring" },
                },
              },
            },
          },
        ],
      },
      Gear: {
        type: "object",
        required: ["kind", "teeth"],
        properties: { kind: { type: "string" }, teeth: { type: "integer", minimum: 4 } },
      },
      // Takes every gear too, but for its kind: only the discriminator tells them apart.
      Spring: {
        type: "object",
        required: ["kind"],
        properties: { kind: { type: "string" }, teeth: { type: "integer" }, stiffness: { type: "number" } },
      },
    },
  },
};

describe("a description composed with allOf, against the fake made from it", () => {
  let fake: VendorServer;
  let llm: ScriptedLlm;
  let agent: RunningAgent;
  let client: AgentConnection;

  beforeAll(async () => {
    [fake, llm] = await Promise.all([
      startOpenApiFake({ vendor: "Inventory", document: structuredClone(DESCRIPTION) as never }),
      startScriptedLlm({
        script: rules(
          [
            {
              lastUser: /^call (\w+) (.+)$/s,
              reply: (_request, { match }) => callTool(match?.[1] ?? "", JSON.parse(match?.[2] ?? "{}")),
            },
            { afterTool: true, reply: replyFromToolResult() },
          ],
          say("Tell me which operation to call."),
        ),
      }),
    ]);
    const logger = createLogger({ level: "silent" });
    const api = await openApiTools({ document: DESCRIPTION, baseUrl: fake.url, env: {}, logger });
    const tools = api.tools();
    agent = await serveAgent(
      {
        name: "inventory",
        title: "Inventory",
        description: "The Inventory API through its OpenAPI description.",
        systemPrompt: "You work the inventory with your tools.",
        skills: [
          { id: "inventory", name: "Inventory", description: "Widgets", tags: ["widgets"], examples: [] },
        ],
        tools: () => tools,
      },
      {
        env: {
          PORT: "0",
          HOST: "127.0.0.1",
          AGENT_NAME: "inventory",
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
    await Promise.all([fake?.close(), llm?.close()]);
  });

  it("a create called with exampleArgumentsOf asks first, then is done once after yes, the fake answering 201", async () => {
    const { resolved } = await readDescription(DESCRIPTION);
    const create = operationsOf(resolved).operations.find(({ tool }) => tool === "create_widget");
    if (!create) throw new Error("no create_widget");
    const args = exampleArgumentsOf(create);
    // readOnly id and created_at are the server's; the discriminator picks the gear, the first branch.
    expect(args).toEqual({
      body: { name: "example", part: { kind: "gear", teeth: 4 }, secret: "examplex" },
    });

    const asked = await client.send({ text: `call create_widget ${JSON.stringify(args)}` });
    expect(asked.state).toBe("input-required");
    expect(asked.question).toContain("(POST /widgets)");
    expect(fake.requests.filter(({ method }) => method === "POST")).toHaveLength(0);

    const done = await client.send({
      text: "",
      contextId: asked.contextId,
      taskId: asked.taskId,
      decision: "approve",
      ...(asked.argsHashes ? { argsHashes: asked.argsHashes } : {}),
    });
    expect(done.state).toBe("completed");
    const posts = fake.requests.filter(({ method }) => method === "POST");
    expect(posts.map(({ path, status, body }) => ({ path, status, body }))).toEqual([
      { path: "/widgets", status: 201, body: args.body },
    ]);
    // The answer is the description's: its readOnly fields, not its writeOnly secret.
    expect(done.text).toContain('"created_at": "2024-01-15T09:30:00Z"');
    expect(done.text).not.toContain("secret");
  });

  it("the fake's mocked answer for an allOf-composed read is 200 and the description's", async () => {
    const response = await fetch(`${fake.url}/widgets/3fa85f64-5717-4562-b3fc-2c963f66afa6`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
      created_at: "2024-01-15T09:30:00Z",
      name: "example",
      owner: "example",
      part: { kind: "gear", teeth: 4 },
    });
  });

  it("a body that breaks the description is still refused, naming the field", async () => {
    const response = await fetch(`${fake.url}/widgets`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "ok-name",
        secret: "long enough",
        part: { kind: "spring", teeth: "many" },
      }),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain("/requestBody/part");
  });
});
