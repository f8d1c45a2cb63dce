// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the settings hold ${VAR} references on purpose.
import { describe, expect, it } from "vitest";
import {
  interpolateMcpServer,
  type McpServerConfig,
  mcpVariablePrefix,
  mcpVariablesFor,
  parseMcpServers,
  parseToolNames,
} from "./mcp.js";

describe("an agent's MCP settings", () => {
  it("are named after the agent's env prefix", () => {
    expect(mcpVariablesFor("status-page")).toEqual({
      servers: "STATUS_PAGE_MCP_SERVERS",
      readOnlyTools: "STATUS_PAGE_MCP_READ_ONLY_TOOLS",
      confirmTools: "STATUS_PAGE_MCP_CONFIRM_TOOLS",
    });
    expect(mcpVariablePrefix("STATUS_PAGE_MCP_CONFIRM_TOOLS")).toBe("STATUS_PAGE");
    expect(mcpVariablePrefix("STATUS_PAGE_AGENT_URL")).toBeUndefined();
  });

  it("read stdio and Streamable HTTP servers, also wrapped as a pasted .mcp.json", () => {
    const text = JSON.stringify({
      mcpServers: {
        memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] },
        tickets: {
          type: "http",
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer ${T}" },
        },
      },
    });
    expect(parseMcpServers(text)).toEqual({
      ok: true,
      servers: {
        memory: {
          transport: "stdio",
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-memory"],
          env: {},
          prefixToolNames: false,
        },
        tickets: {
          transport: "http",
          url: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer ${T}" },
          prefixToolNames: false,
        },
      },
    });
    expect(parseMcpServers("  ")).toEqual({ ok: true, servers: {} });
  });

  it("read SSE servers (CAIPE's transport: sse), their headers filled and kept secret like HTTP ones", () => {
    const parsed = parseMcpServers(
      JSON.stringify({
        legacy: { transport: "sse", url: "http://mcp:8000/sse", headers: { Authorization: "Bearer ${T}" } },
        typed: { type: "sse", url: "http://mcp:8001/sse" },
      }),
    );
    expect(parsed).toEqual({
      ok: true,
      servers: {
        legacy: {
          transport: "sse",
          url: "http://mcp:8000/sse",
          headers: { Authorization: "Bearer ${T}" },
          prefixToolNames: false,
        },
        typed: { transport: "sse", url: "http://mcp:8001/sse", headers: {}, prefixToolNames: false },
      },
    });
    if (!parsed.ok) throw new Error("not parsed");
    const filled = interpolateMcpServer(parsed.servers.legacy as McpServerConfig, { T: "sse-secret" });
    expect(filled.server).toMatchObject({
      transport: "sse",
      headers: { Authorization: "Bearer sse-secret" },
    });
    expect(filled.secrets).toEqual(["Bearer sse-secret"]);
    // A URL with no transport stays Streamable HTTP; SSE with a stdio field is refused.
    const plain = parseMcpServers(JSON.stringify({ s: { url: "http://mcp/mcp" } }));
    expect(plain.ok && plain.servers.s?.transport).toBe("http");
    expect(parseMcpServers(JSON.stringify({ s: { transport: "sse", command: "x" } })).ok).toBe(false);
  });

  it("say which server and field is wrong", () => {
    const result = parseMcpServers(
      JSON.stringify({ gh: { url: "https://x", header: {} }, "bad name": { command: "x" } }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.join("\n")).toContain('server "gh"');
    expect(result.problems.join("\n")).toContain('server name "bad name": use letters, digits');
    expect(parseMcpServers("{nope")).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^not JSON/)],
    });
  });

  it("fill ${VAR} references from the env, defaults included, and report the unset ones", () => {
    const parsed = parseMcpServers(
      JSON.stringify({
        s: {
          command: "srv",
          args: ["--token", "${TOKEN}", "--region=${REGION:-eu}"],
          env: { KEY: "${KEY}", MODE: "${MODE}" },
        },
      }),
    );
    if (!parsed.ok || !parsed.servers.s) throw new Error("did not parse");
    const filled = interpolateMcpServer(parsed.servers.s, {
      TOKEN: "tok-123456",
      KEY: "key-abcdef",
      MODE: "  ",
    });
    expect(filled.missing).toEqual(["MODE"]);
    expect(filled.server).toMatchObject({
      args: ["--token", "tok-123456", "--region=eu"],
      env: { KEY: "key-abcdef", MODE: "" },
    });
    expect(filled.secrets).toEqual(expect.arrayContaining(["key-abcdef", "tok-123456"]));
  });

  it("split tool-name lists on commas and spaces", () => {
    expect(parseToolNames(" a, b  c,,")).toEqual(["a", "b", "c"]);
  });
});
