import { loadMcpTools } from "@langchain/mcp-adapters";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { toolProblems } from "@switchboard/llm";
import { PROVIDER_NAMES } from "@switchboard-testing/test-llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePortable, PORTABLE_TOOL_NAME } from "../src/mcp/portable-tools.js";

// A deliberately awkward MCP server: names and schemas that some provider refuses. Its tools, loaded as
// an agent loads them, pass every provider's documented rules once made portable, and a call by the new
// name still reaches the server's own tool.

const AWKWARD = [
  {
    name: "jira/get issue",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { key: { type: "string", examples: ["PLAT-1"], format: "uri" } },
      required: ["key"],
      additionalProperties: false,
    },
  },
  {
    name: "search:docs.v2",
    inputSchema: { type: "object", properties: { q: { type: ["string", "null"] } } },
  },
  { name: "1password-lookup", inputSchema: { type: "object", properties: { kind: { const: "login" } } } },
  { name: `long_${"x".repeat(80)}`, inputSchema: { type: "object", properties: {} } },
  { name: `long_${"x".repeat(80)}y`, inputSchema: { type: "object", properties: {} } },
  {
    name: "create_ticket",
    inputSchema: {
      type: "object",
      $defs: { Priority: { type: "integer", enum: [1, 2, 3], default: 2 } },
      properties: {
        priority: { $ref: "#/$defs/Priority" },
        target: { oneOf: [{ type: "string" }, { type: "number" }] },
        labels: { type: "array", items: { type: "string", minLength: 1 }, uniqueItems: true },
      },
    },
  },
];

let client: Client;
const called: string[] = [];

beforeAll(async () => {
  const server = new Server({ name: "awkward", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: AWKWARD.map((tool) => ({ ...tool, description: `The ${tool.name} tool` })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    called.push(request.params.name);
    return { content: [{ type: "text", text: `ran ${request.params.name}` }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: "test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
});
afterAll(() => client.close());

describe("MCP tools every provider accepts", () => {
  it("renames and rewrites what some provider would refuse, and calls the server's own tool", async () => {
    const tools = await loadMcpTools("awkward", client, { throwOnLoadError: true });
    const offered = () =>
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.schema as Record<string, unknown>,
      }));
    const refusedBefore = PROVIDER_NAMES.filter((provider) => toolProblems(provider, offered()).length > 0);
    expect(refusedBefore).toEqual([
      "openai",
      "azure-openai",
      "anthropic-claude",
      "aws-bedrock",
      "google-gemini",
    ]);

    const renamed = makePortable(tools, ["create_issue"]);
    for (const provider of PROVIDER_NAMES) expect(toolProblems(provider, offered()), provider).toEqual([]);
    const names = tools.map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((name) => PORTABLE_TOOL_NAME.test(name))).toBe(true);
    expect(names.slice(0, 3)).toEqual(["jira_get_issue", "search_docs_v2", "_1password-lookup"]);
    expect(renamed.get("jira/get issue")).toBe("jira_get_issue");
    expect(names[5]).toBe("create_ticket");

    type Properties = { properties: Record<string, Record<string, unknown>> };
    const properties = (index: number) => (tools[index]?.schema as Properties | undefined)?.properties;
    expect(properties(5)?.priority).toEqual({ type: "integer", description: "(one of 1, 2, 3)" });
    expect(properties(1)?.q).toEqual({ type: "string", nullable: true });

    expect(await tools[0]?.invoke({ key: "PLAT-1" })).toContain("ran jira/get issue");
    expect(await tools[3]?.invoke({})).toContain(`ran long_${"x".repeat(80)}`);
    expect(called).toEqual(["jira/get issue", `long_${"x".repeat(80)}`]);
  });
});
