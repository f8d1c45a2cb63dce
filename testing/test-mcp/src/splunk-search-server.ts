import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

/** One indexed event, as a search returns it. */
export interface SplunkEvent {
  _time: string;
  index: string;
  sourcetype: string;
  host: string;
  _raw: string;
}

export interface SplunkSearchServerOptions {
  events: SplunkEvent[];
  /** Every search asked, oldest first (a test reads what the agent sent). */
  searches: Array<{ query: string; earliest_time: string; row_limit: number }>;
}

/**
 * The search tool of the Splunk Platform MCP server CAIPE's Splunk agent called for log search:
 * `run_splunk_query` with an SPL query, a time range and a row limit, read-only. It understands the
 * part of SPL a log search starts with: `index=<name>`, `sourcetype=<name>`, bare terms (all must
 * appear in the event), and `| head N`.
 */
export function createSplunkSearchServer({ events, searches }: SplunkSearchServerOptions): McpServer {
  const server = new McpServer({ name: "test-splunk-platform", version: "1.0.0" });
  server.registerTool(
    "run_splunk_query",
    {
      description: "Run a Splunk Search Processing Language (SPL) query and return the matching events",
      inputSchema: {
        query: z.string().min(1).describe("The SPL query, e.g. index=main error | head 20"),
        earliest_time: z.string().default("-24h").describe("Splunk time modifier, e.g. -24h"),
        latest_time: z.string().default("now"),
        row_limit: z.number().int().min(1).max(1000).default(100),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ query, earliest_time, row_limit }) => {
      searches.push({ query, earliest_time, row_limit });
      const [search = "", ...commands] = query.split("|").map((part) => part.trim());
      const head = commands.map((one) => /^head\s+(\d+)$/.exec(one)).find(Boolean);
      const terms = search.split(/\s+/).filter(Boolean);
      const rows = events
        .filter((event) =>
          terms.every((term) => {
            const [field, value] = term.split("=");
            if (value !== undefined && (field === "index" || field === "sourcetype"))
              return event[field] === value;
            return event._raw.toLowerCase().includes(term.toLowerCase());
          }),
        )
        .slice(0, Math.min(row_limit, head ? Number(head[1]) : row_limit));
      return {
        content: [{ type: "text" as const, text: JSON.stringify({ results: rows, count: rows.length }) }],
      };
    },
  );
  return server;
}
