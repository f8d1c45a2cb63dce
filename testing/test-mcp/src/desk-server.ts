import { createHash } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { DeskStore, Ticket } from "./store.js";

/** Characters ticket_report returns: far beyond what an agent keeps of one tool result. */
export const REPORT_CHARS = 20_000;

export interface DeskServerOptions {
  store: DeskStore;
  /** The credential this connection presented (a stdio server's env, an HTTP request's header). */
  credential?: string | undefined;
}

/** The first 12 hex of sha256: what token_fingerprint answers, so a test can compare without echoing it. */
export function fingerprint(secret: string): string {
  return createHash("sha256").update(secret).digest("hex").slice(0, 12);
}

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const line = (ticket: Ticket) => `${ticket.id} [${ticket.status}] ${ticket.title}`;

/**
 * A small ticket desk as an MCP server: read-only tools annotated `readOnlyHint`, a change tool with
 * no annotations and one annotated destructive, a tool that reports progress, one that answers far
 * too much, one that fails, and one that tells which credential reached it.
 */
export function createDeskServer({ store, credential }: DeskServerOptions): McpServer {
  const server = new McpServer({ name: "test-desk", version: "1.0.0" });
  const record = (tool: string, args: Record<string, unknown>) =>
    store.update((state) => {
      state.calls.push({ tool, args });
    });

  server.registerTool(
    "list_tickets",
    {
      description: "List the desk's tickets, optionally only those with a status",
      inputSchema: { status: z.enum(["open", "closed"]).optional().describe("open or closed") },
      annotations: { readOnlyHint: true },
    },
    async (args) => {
      record("list_tickets", args);
      const tickets = store.read().tickets.filter((ticket) => !args.status || ticket.status === args.status);
      return text(tickets.length === 0 ? "No tickets." : tickets.map(line).join("\n"));
    },
  );

  server.registerTool(
    "create_ticket",
    {
      description: "Open a new ticket on the desk",
      inputSchema: { title: z.string().min(1).describe("What the ticket is about") },
    },
    async (args) => {
      record("create_ticket", args);
      let created: Ticket | undefined;
      store.update((state) => {
        created = { id: `T-${state.tickets.length + 1}`, title: args.title, status: "open" };
        state.tickets.push(created);
      });
      return text(`Created ${line(created as Ticket)}`);
    },
  );

  server.registerTool(
    "close_ticket",
    {
      description: "Close a ticket",
      inputSchema: { id: z.string().describe("The ticket id, e.g. T-1") },
      annotations: { readOnlyHint: false, destructiveHint: true },
    },
    async (args) => {
      record("close_ticket", args);
      let found: Ticket | undefined;
      store.update((state) => {
        found = state.tickets.find((ticket) => ticket.id === args.id);
        if (found) found.status = "closed";
      });
      return found ? text(`Closed ${line(found)}`) : { ...text(`No ticket ${args.id}.`), isError: true };
    },
  );

  server.registerTool(
    "ticket_report",
    {
      description: "The full history of every ticket (long)",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async () => {
      record("ticket_report", {});
      return text(`REPORT START ${"history ".repeat(REPORT_CHARS / 8)}REPORT END`);
    },
  );

  server.registerTool(
    "count_tickets_slowly",
    {
      description: "Count the tickets, reporting progress on the way",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async (_args, extra) => {
      record("count_tickets_slowly", {});
      const total = 3;
      const token = extra._meta?.progressToken;
      for (let step = 1; step <= total; step += 1) {
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: {
              progressToken: token,
              progress: step,
              total,
              message: `Counted shelf ${step} of ${total}`,
            },
          });
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return text(`There are ${store.read().tickets.length} tickets.`);
    },
  );

  server.registerTool(
    "failing_tool",
    {
      description: "Always fails: the ticket database is locked",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async () => ({ ...text("the ticket database is locked"), isError: true }),
  );

  server.registerTool(
    "token_fingerprint",
    {
      description: "Which credential reached the desk (a fingerprint, never the credential)",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    async () => text(credential ? `credential ${fingerprint(credential)}` : "no credential"),
  );

  return server;
}
