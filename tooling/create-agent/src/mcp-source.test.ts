import { describe, expect, it } from "vitest";
import { mcpServerFor, mcpTemplateValues } from "./mcp-source.js";
import { agentTemplateValues, renderTemplateDir } from "./templates.js";

describe("an MCP-backed agent's server", () => {
  it("splits --mcp-command as a shell would, quotes kept together", () => {
    expect(mcpServerFor({ command: `npx -y @modelcontextprotocol/server-memory` })).toEqual({
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-memory"],
    });
    expect(mcpServerFor({ command: `"/opt/my tools/server" --root '/srv/a b'` })).toEqual({
      command: "/opt/my tools/server",
      args: ["--root", "/srv/a b"],
    });
    expect(mcpServerFor({ command: "server" })).toEqual({ command: "server" });
  });

  it("refuses a pipeline, an empty command and a URL that is not http(s)", () => {
    expect(() => mcpServerFor({ command: "server | tee log" })).toThrow(/more than one program/);
    expect(() => mcpServerFor({ command: "  " })).toThrow(/--mcp-command is empty/);
    expect(() => mcpServerFor({ url: "ftp://mcp.example.com" })).toThrow(/must be http\(s\)/);
    expect(() => mcpServerFor({ url: "mcp.example.com" })).toThrow(/is not a URL/);
    expect(mcpServerFor({ url: "https://mcp.example.com/mcp" })).toEqual({
      url: "https://mcp.example.com/mcp",
    });
  });

  it("renders an agent package with the server in its definition and no API client", () => {
    const base = agentTemplateValues({ name: "team-memory", port: 8017, description: "Remembers" });
    const source = { command: "npx -y @modelcontextprotocol/server-memory" };
    const values = { ...base, ...mcpTemplateValues(base.title ?? "", source, mcpServerFor(source)) };
    const files = renderTemplateDir("mcp-agent", values);
    expect([...files.keys()].sort()).toEqual([
      "README.md",
      "package.json",
      "src/agent.ts",
      "src/index.ts",
      "src/prompt.ts",
      "test/team-memory.int.test.ts",
      "tsconfig.build.json",
      "tsconfig.json",
      "vitest.config.ts",
    ]);
    for (const [file, text] of files) expect(text, file).not.toMatch(/\{\{\w+\}\}/);
    expect(files.get("src/agent.ts")).toContain(
      '"team-memory": {"command":"npx","args":["-y","@modelcontextprotocol/server-memory"]},',
    );
    expect(files.get("README.md")).toContain('pnpm new-agent team-memory --mcp-command "npx -y');
  });
});
