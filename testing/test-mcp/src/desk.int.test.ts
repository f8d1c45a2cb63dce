import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { describe, expect, it } from "vitest";
import { fingerprint } from "./desk-server.js";
import { startDeskHttpServer } from "./http.js";
import { deskStdioCommand } from "./stdio-command.js";
import { DeskStore } from "./store.js";

const stateFile = () => join(scratchDir("test-mcp"), "desk.json");
const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as Array<{ text?: string }>).map((block) => block.text ?? "").join("");

describe("the test desk MCP server", () => {
  it("serves annotated tools over stdio, with the credential from its env", async () => {
    const file = stateFile();
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StdioClientTransport(deskStdioCommand(file, "s3cret-token")));
    try {
      const { tools } = await client.listTools();
      const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name);
      expect(readOnly).toContain("list_tickets");
      expect(readOnly).not.toContain("create_ticket");
      expect(text(await client.callTool({ name: "token_fingerprint", arguments: {} }))).toBe(
        `credential ${fingerprint("s3cret-token")}`,
      );
      await client.callTool({ name: "create_ticket", arguments: { title: "New" } });
      expect(new DeskStore(file).read().tickets.map((ticket) => ticket.title)).toContain("New");
    } finally {
      await client.close();
    }
  });

  it("requires its token over HTTP, and forgets its sessions when restarted", async () => {
    const server = await startDeskHttpServer({ stateFile: stateFile(), token: "tok" });
    const connect = async (token: string) => {
      const client = new Client({ name: "test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    };
    try {
      await expect(connect("wrong")).rejects.toThrow(/Unauthorized/);
      const transport = new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: "Bearer tok" } },
      });
      const client = new Client({ name: "test", version: "1.0.0" });
      await client.connect(transport);
      expect(text(await client.callTool({ name: "list_tickets", arguments: {} }))).toContain("T-1 [open]");
      await client.close();
      await server.restart();
      // Let the client see its pooled connections closed (as it has long since, with a real restart).
      await new Promise((resolve) => setTimeout(resolve, 50));
      const stale = await fetch(server.url, {
        method: "POST",
        headers: {
          authorization: "Bearer tok",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": transport.sessionId ?? "",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      expect(stale.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
