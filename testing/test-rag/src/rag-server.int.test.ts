import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RagServer, startRagServer } from "./rag-server.js";

describe("the test RAG server", () => {
  let idp: IdentityProvider;
  let rag: RagServer;
  const tokens: Record<string, string> = {};

  const connect = async (token?: string) => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${rag.url}/mcp`), {
        ...(token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}),
      }),
    );
    return client;
  };
  const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
    (result.content as Array<{ text?: string }>).map((block) => block.text ?? "").join("");

  beforeAll(async () => {
    idp = await startIdentityProvider({
      users: { alice: { groups: ["platform", "security"] }, bob: { groups: ["platform"] } },
    });
    rag = await startRagServer({
      idp,
      datasources: [
        { id: "runbooks", readers: ["platform"] },
        { id: "incidents", readers: ["security"] },
      ],
      documents: [
        {
          document_id: "rb-1",
          datasource_id: "runbooks",
          title: "Rotating certificates",
          source_url: "https://wiki.example.com/rb-1",
          text: "Rotate the certificates with certbot renew.",
        },
        {
          document_id: "inc-1",
          datasource_id: "incidents",
          title: "Certificate leak",
          source_url: "https://wiki.example.com/inc-1",
          text: "The leaked certificates were revoked.",
        },
      ],
    });
    for (const user of ["alice", "bob"]) tokens[user] = await signIn(idp, user);
  });
  afterAll(async () => {
    await Promise.all([rag?.close(), idp?.close()]);
  });

  it("lists CAIPE's three tools with CAIPE's input schemas, without a token", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    await client.close();
    expect(tools.map((tool) => tool.name)).toEqual([
      "search",
      "fetch_document",
      "list_datasources_and_entity_types",
    ]);
    expect(tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: {
        query: { type: "string" },
        filters: { anyOf: [{ type: "object", additionalProperties: true }, { type: "null" }], default: null },
        limit: { type: "integer", default: 10 },
        thought: { type: "string", default: "" },
      },
      required: ["query"],
    });
  });

  it("answers each user from the datasources their groups may read; a filter never widens it", async () => {
    const alice = await connect(tokens.alice);
    const bob = await connect(tokens.bob);
    const search = { name: "search", arguments: { query: "certificates" } };
    expect(textOf(await alice.callTool(search))).toContain("inc-1");
    const bobs = textOf(await bob.callTool(search));
    expect(bobs).toContain("rb-1");
    expect(bobs).not.toContain("inc-1");
    const widened = textOf(
      await bob.callTool({
        name: "search",
        arguments: { query: "leak", filters: { datasource_id: "incidents" } },
      }),
    );
    expect(widened).not.toContain("inc-1");
    expect(
      textOf(await bob.callTool({ name: "fetch_document", arguments: { document_id: "inc-1" } })),
    ).toMatch(/^Error: Document with ID 'inc-1' not found/);
    expect(
      JSON.parse(textOf(await bob.callTool({ name: "list_datasources_and_entity_types", arguments: {} }))),
    ).toEqual({ datasources: ["runbooks"], entity_types: [] });
    expect(
      rag.calls.filter((call) => call.subject === "bob").every((call) => call.token === tokens.bob),
    ).toBe(true);
    await Promise.all([alice.close(), bob.close()]);
  });

  it("reads nothing for a call without a token, and refuses a forged one", async () => {
    const anonymous = await connect();
    const result = JSON.parse(
      textOf(await anonymous.callTool({ name: "search", arguments: { query: "certificates" } })),
    );
    expect(result.semantic_results).toEqual([]);
    await anonymous.close();
    await expect(connect(`${tokens.alice}x`)).rejects.toThrow(/401|nauthorized/);
  });

  it("serves CAIPE's health check with its config", async () => {
    const health = (await (await fetch(`${rag.url}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: "healthy", config: { graph_rag_enabled: false } });
  });
});
