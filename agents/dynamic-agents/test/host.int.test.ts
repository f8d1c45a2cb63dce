import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectAgent } from "@switchboard/a2a-client";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { type FakePetstore, startFakePetstore } from "@switchboard-testing/fake-vendors";
import { type AgentProcess, freePort, startAgentProcess } from "@switchboard-testing/test-agents";
import {
  callTool,
  replyFromToolResult,
  routeByAgentPrefix,
  rules,
  type ScriptedLlm,
  say,
  startScriptedLlm,
} from "@switchboard-testing/test-llm";
import { type DeskHttpServer, startDeskHttpServer } from "@switchboard-testing/test-mcp";
import { testMongoEnv, testMongoUri, uniqueDbName } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { caipeAppConfig } from "./caipe-app-config.js";
import { hostPackageDir, memoryServerScript, startHost } from "./host-process.js";

const PETSTORE_SPEC = join(
  hostPackageDir,
  "..",
  "..",
  "testing",
  "fake-vendors",
  "specs",
  "swagger-petstore",
  "openapi.yaml",
);

/** "use <tool> [<json>]" calls that tool; a tool's result is the answer; anything else is a greeting. */
const script = rules(
  [
    {
      lastUser: /^use (\w+)(?: (\{.*\}))?$/,
      reply: (_r, { match }) => callTool(match?.[1] ?? "", JSON.parse(match?.[2] ?? "{}")),
    },
    // The supervisor: "<agent>: …" goes to that agent.
    ...routeByAgentPrefix(),
    { afterTool: true, reply: replyFromToolResult() },
  ],
  say("Hello from a configured agent."),
);

describe("CAIPE 0.6.0's app-config.yaml served by the host", () => {
  const dir = scratchDir("dynamic-agents-host");
  const dbName = uniqueDbName("dynamic");
  let llm: ScriptedLlm;
  let desk: DeskHttpServer;
  let petstore: FakePetstore;
  let host: AgentProcess;
  let supervisor: AgentProcess;

  beforeAll(async () => {
    llm = await startScriptedLlm({ script });
    desk = await startDeskHttpServer({ stateFile: join(dir, "desk.json") });
    petstore = await startFakePetstore();
    const configFile = join(dir, "app-config.yaml");
    writeFileSync(
      configFile,
      caipeAppConfig({
        // A Switchboard extension: an OpenAPI description as a tool source, its key from the env.
        openapi_sources: [
          {
            id: "petstore",
            name: "Petstore",
            description: "The Swagger Petstore",
            document: PETSTORE_SPEC,
            base_url: petstore.apiUrl,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the file refers to the variable, as CAIPE's does.
            auth: { api_key: "${PETSTORE_KEY}" },
          },
        ],
        mcp_servers: [
          {
            id: "memory",
            name: "Memory",
            description: "The published memory server, over stdio",
            transport: "stdio",
            command: process.execPath,
            args: [memoryServerScript()],
            env: { MEMORY_FILE_PATH: join(dir, "memory.jsonl") },
          },
        ],
        agents: [
          {
            id: "desk-agent",
            name: "Desk Agent",
            description: "Tickets on the desk, and what to remember",
            system_prompt: "You keep the ticket desk.",
            model_id: "global.anthropic.claude-haiku-4-5-20251001-v1:0",
            model_provider: "aws-bedrock",
            visibility: "global",
            allowed_tools: { github: ["list_tickets", "create_ticket", "close_ticket"], memory: true },
            interrupt_on: { github: { list_tickets: true } },
            subagents: [],
            enabled: true,
          },
          {
            id: "pets-agent",
            name: "Pets",
            description: "The Petstore through its OpenAPI description",
            system_prompt: "You keep the pet store.",
            model_id: "gpt-4o",
            model_provider: "azure-openai",
            visibility: "global",
            allowed_tools: { petstore: ["get_pet_by_id", "add_pet"] },
            subagents: [],
            enabled: true,
          },
          {
            id: "disabled-agent",
            name: "Disabled",
            description: "Not served",
            system_prompt: "-",
            model_id: "gpt-4o",
            model_provider: "azure-openai",
            visibility: "global",
            allowed_tools: {},
            subagents: [],
            enabled: false,
          },
        ],
      }),
    );
    const port = await freePort();
    host = await startHost({
      ...testMongoEnv(dbName),
      PORT: String(port),
      AGENT_PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...llm.envFor("azure-openai"),
      ...llm.envFor("aws-bedrock"),
      APP_CONFIG_FILE: configFile,
      // CAIPE's example servers, each a real MCP server (the official SDK's desk).
      GITHUB_MCP_URL: desk.url,
      ARGOCD_MCP_URL: desk.url,
      RAG_SERVER_MCP_URL: desk.url,
      PETSTORE_KEY: petstore.apiKey,
    });
    // The supervisor finds the host's agents with no other setting than where the host is.
    supervisor = await startAgentProcess(join(hostPackageDir, "..", "supervisor"), {
      env: { ...testMongoEnv(dbName), ...llm.envFor("openai"), DYNAMIC_AGENTS_URL: host.url },
    });
  }, 180_000);

  afterAll(async () => {
    await supervisor?.kill("SIGTERM");
    await host?.kill("SIGTERM");
    await desk?.close();
    await petstore?.close();
    await llm?.close();
  });

  it("lists every enabled agent at GET /agents, each with its card at its own path", async () => {
    const listed = (await (await fetch(`${host.url}/agents`)).json()) as {
      agents: Array<{ id: string; name: string; url: string }>;
    };
    expect(listed.agents.map((agent) => agent.id).sort()).toEqual([
      "default-agent",
      "desk-agent",
      "pets-agent",
    ]);
    const card = (await (
      await fetch(`${host.url}/agents/desk-agent/.well-known/agent-card.json`)
    ).json()) as {
      name: string;
      description: string;
    };
    expect(card.name).toBe("desk-agent");
    expect(card.description).toContain("Tickets on the desk, and what to remember");
    expect((await fetch(`${host.url}/agents/disabled-agent/.well-known/agent-card.json`)).status).toBe(404);
    expect((await fetch(`${host.url}/health`)).status).toBe(200);
    expect((await fetch(`${host.url}/ready`)).status).toBe(200);
    // The host's own metrics with the process's, once; each agent's own registry under its path.
    const hostMetrics = await (await fetch(`${host.url}/metrics`)).text();
    expect(hostMetrics).toMatch(/^dynamic_agents_served 3$/m);
    expect(hostMetrics).toContain("process_resident_memory_bytes");
    const deskMetrics = await (await fetch(`${host.url}/agents/desk-agent/metrics`)).text();
    expect(deskMetrics).toContain("# HELP switchboard_turn_duration_seconds");
    expect(deskMetrics).not.toContain("process_resident_memory_bytes");
  });

  it("answers over A2A on CAIPE's own example agent, with its model from the file", async () => {
    const agent = await connectAgent(`${host.url}/agents/default-agent`);
    const answer = await agent.send({ text: "hello", contextId: `ctx-${randomUUID()}` });
    expect(answer.state).toBe("completed");
    expect(answer.text).toContain("Hello from a configured agent.");
    // CAIPE's example names azure-openai and its gpt-4o deployment.
    expect(llm.calls.some((call) => call.path.includes("/deployments/gpt-4o/"))).toBe(true);
  });

  it("asks before a tool interrupt_on names, and runs it after yes", async () => {
    const agent = await connectAgent(`${host.url}/agents/desk-agent`);
    const contextId = `ctx-${randomUUID()}`;
    const asked = await agent.send({ text: "use github_list_tickets", contextId });
    expect(asked.state).toBe("input-required");
    expect(asked.question ?? asked.text).toContain("list_tickets");
    const done = await agent.send({ text: "yes", contextId, taskId: asked.taskId });
    expect(done.state).toBe("completed");
  });

  it("runs a tool interrupt_on does not name at once, unless its server marks it destructive", async () => {
    const agent = await connectAgent(`${host.url}/agents/desk-agent`);
    // server-memory marks create_entities neither read-only nor destructive: it runs at once here
    // (without interrupt_on, Switchboard's rule would ask, as for any tool that is not read-only).
    const entity = { name: "payments-api", entityType: "service", observations: ["owned by Orion"] };
    const created = await agent.send({
      text: `use memory_create_entities ${JSON.stringify({ entities: [entity] })}`,
      contextId: `ctx-${randomUUID()}`,
    });
    expect(created.state).toBe("completed");
    expect(readFileSync(join(dir, "memory.jsonl"), "utf8")).toContain("payments-api");
    // It marks delete_entities destructive; the desk marks close_ticket so, and create_ticket has no
    // annotations (MCP's default: destructive). Each asks.
    for (const text of [
      'use memory_delete_entities {"entityNames":["payments-api"]}',
      'use github_close_ticket {"id":"1"}',
      'use github_create_ticket {"title":"Printer on fire"}',
    ]) {
      const asked = await agent.send({ text, contextId: `ctx-${randomUUID()}` });
      expect(asked.state, text).toBe("input-required");
    }
  });

  it("offers only the tools allowed, named <server>_<tool>, from the stdio server too", async () => {
    const agent = await connectAgent(`${host.url}/agents/desk-agent`);
    const graph = await agent.send({ text: "use memory_read_graph", contextId: `ctx-${randomUUID()}` });
    expect(graph.state).toBe("completed");
    const offered = new Set((llm.requests.at(-1)?.tools ?? []).map((tool) => tool.function.name));
    expect(offered.has("github_list_tickets")).toBe(true);
    expect(offered.has("memory_read_graph")).toBe(true);
    expect(offered.has("github_ticket_report")).toBe(false);
  });

  it("keeps each agent's conversations in its own collections", async () => {
    const mongo = await MongoClient.connect(testMongoUri());
    try {
      const names = (await mongo.db(dbName).listCollections().toArray()).map((c) => c.name);
      expect(names).toContain("checkpoints_desk-agent");
      expect(names).toContain("checkpoints_default-agent");
    } finally {
      await mongo.close();
    }
  });

  it("is routed to by the supervisor, which finds its agents through DYNAMIC_AGENTS_URL alone", async () => {
    await vi.waitFor(
      async () => {
        const listed = (await (await fetch(`${supervisor.url}/subagents`)).json()) as {
          subagents: Array<{ name: string; status: string }>;
        };
        expect(listed.subagents).toContainEqual(
          expect.objectContaining({ name: "default-agent", status: "available" }),
        );
      },
      { timeout: 30_000, interval: 200 },
    );
    const connection = await connectAgent(supervisor.url);
    const answer = await connection.send({
      text: "forward to default-agent: hello there",
      contextId: `ctx-${randomUUID()}`,
    });
    expect(answer.state).toBe("completed");
    expect(answer.text).toContain("Hello from a configured agent.");
  });

  it("takes tools from an OpenAPI description too: a read runs, a change asks first", async () => {
    const agent = await connectAgent(`${host.url}/agents/pets-agent`);
    const read = await agent.send({
      text: 'use petstore_get_pet_by_id {"petId":1}',
      contextId: `ctx-${randomUUID()}`,
    });
    expect(read.state).toBe("completed");
    expect(read.text).toContain("Rex");
    const before = petstore.changes.length;
    const asked = await agent.send({
      text: 'use petstore_add_pet {"body":{"name":"Nemo","photoUrls":[],"status":"available"}}',
      contextId: `ctx-${randomUUID()}`,
    });
    expect(asked.state).toBe("input-required");
    expect(petstore.changes.length).toBe(before);
  });

  it("drains on SIGTERM: stops being ready, finishes, and exits cleanly", async () => {
    await host.kill("SIGTERM");
    expect(await host.exited).toBe(0);
    expect(host.logs()).toContain("shutting down: finishing running turns");
  });
});
