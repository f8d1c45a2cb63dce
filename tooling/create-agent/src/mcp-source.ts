import { checkMcpServers, type McpServerInput } from "@switchboard/contract";
import { parse as parseShellWords } from "shell-quote";
import type { TemplateValues } from "./templates.js";

/** Where a generated agent's tools come from: `--mcp-command "<cmd>"` or `--mcp-url <url>`. */
export type McpSource = { command: string } | { url: string };

/**
 * The MCP server entry a generated agent's definition holds: the command split as a shell would
 * (quotes kept together, no pipes or redirections: the agent starts the program itself), or the URL.
 */
export function mcpServerFor(source: McpSource): McpServerInput {
  let server: McpServerInput;
  if ("command" in source) {
    const words = parseShellWords(source.command);
    if (words.some((word) => typeof word !== "string")) {
      throw new Error(
        `--mcp-command ${JSON.stringify(source.command)} is more than one program: give the server's command and its arguments only (no pipes, redirections or globs).`,
      );
    }
    const [command, ...args] = words as string[];
    if (!command) throw new Error("--mcp-command is empty: give the command that starts the MCP server.");
    server = args.length > 0 ? { command, args } : { command };
  } else {
    let url: URL;
    try {
      url = new URL(source.url);
    } catch {
      throw new Error(
        `--mcp-url ${JSON.stringify(source.url)} is not a URL: give the server's Streamable HTTP endpoint, e.g. https://mcp.example.com/mcp.`,
      );
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new Error(`--mcp-url must be http(s), not ${url.protocol}`);
    }
    server = { url: source.url };
  }
  const checked = checkMcpServers({ server });
  if (!checked.ok) throw new Error(`The MCP server is not valid: ${checked.problems.join("; ")}`);
  return server;
}

/** What the mcp-agent templates add to an agent's template values. */
export function mcpTemplateValues(title: string, source: McpSource, server: McpServerInput): TemplateValues {
  return {
    mcpServer: JSON.stringify(server),
    mcpFlag: "command" in source ? `--mcp-command "${source.command}"` : `--mcp-url ${source.url}`,
    toolsSkillJson: JSON.stringify(`${title} tools`),
    exampleJson: JSON.stringify(`What can you do with ${title}?`),
  };
}
