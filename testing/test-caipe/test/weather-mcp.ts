import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

/** The weather every city has here: the agent's answer must carry it, so it came from the tool. */
export function weatherIn(city: string): string {
  return `${city}: 18°C, light rain`;
}

export interface WeatherMcp {
  /** The MCP endpoint, http://127.0.0.1:<port>/mcp: CAIPE's WEATHER_MCP_API_URL. */
  url: string;
  /** The cities asked about, in order. */
  calls: string[];
  close(): Promise<void>;
}

/**
 * A weather MCP server (official MCP SDK, Streamable HTTP, stateless): the local stand-in for the
 * remote server CAIPE's weather agent uses in HTTP mode (WEATHER_MCP_MODE=http).
 */
export async function startWeatherMcp(): Promise<WeatherMcp> {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    const mcp = new McpServer({ name: "test-weather", version: "1.0.0" });
    mcp.registerTool(
      "get_current_weather",
      {
        description: "Current weather conditions for a city",
        inputSchema: { city: z.string().describe("City name") },
      },
      async ({ city }) => {
        calls.push(city);
        return { content: [{ type: "text", text: weatherIn(city) }] };
      },
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
