// biome-ignore-all lint/suspicious/noTemplateCurlyInString: MCP server lists refer to variables as ${VAR}, on purpose.
import { randomUUID } from "node:crypto";
import { freePort } from "@switchboard-testing/test-agents";
import type { ScriptedLlm } from "@switchboard-testing/test-llm";
import {
  type DeskHttpServer,
  DeskStore,
  deskStdioCommand,
  fingerprint,
  REPORT_CHARS,
  startDeskHttpServer,
} from "@switchboard-testing/test-mcp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MAX_TOOL_RESULT_CHARS } from "../src/graph/tool-results.js";
import type { RunningAgent } from "../src/serve.js";
import { clientFor, send, stateOf, statusText } from "./a2a.js";
import { CapturedLog, serveDeskAgent, startObedientLlm, stateFile, streamTurn } from "./desk-agent.js";

interface Desk {
  /** The agent's env for this desk: DESK_MCP_SERVERS and the credential it refers to. */
  env: Record<string, string>;
  store: DeskStore;
  /** The server goes away and comes back (a stdio process killed, an HTTP server restarted). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const TOKEN = `desk-secret-${randomUUID()}`;

async function stdioDesk(): Promise<Desk> {
  const file = stateFile();
  const store = new DeskStore(file);
  // The credential reaches the server through its env, from the agent's own DESK_TOKEN.
  const { command, args, env } = deskStdioCommand(file, "${DESK_TOKEN}");
  return {
    env: { DESK_MCP_SERVERS: JSON.stringify({ desk: { command, args, env } }), DESK_TOKEN: TOKEN },
    store,
    restart: async () => {
      const pid = store.read().pids.at(-1);
      if (pid === undefined) throw new Error("the desk never started");
      process.kill(pid, "SIGKILL");
      while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    },
    close: async () => undefined,
  };
}

async function httpDesk(): Promise<Desk & { server: DeskHttpServer }> {
  const server = await startDeskHttpServer({ stateFile: stateFile(), token: TOKEN });
  return {
    server,
    env: {
      DESK_MCP_SERVERS: JSON.stringify({
        desk: { url: server.url, headers: { Authorization: "Bearer ${DESK_TOKEN}" } },
      }),
      DESK_TOKEN: TOKEN,
    },
    store: server.store,
    restart: () => server.restart(),
    close: () => server.close(),
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.each([
  { transport: "stdio", startDesk: stdioDesk },
  { transport: "Streamable HTTP", startDesk: httpDesk },
])("MCP tools over $transport, through the agent over A2A", ({ startDesk }) => {
  let llm: ScriptedLlm;
  let desk: Desk;
  let agent: RunningAgent | undefined;
  let log: CapturedLog;

  const start = async (extra: Record<string, string> = {}) => {
    log = new CapturedLog();
    agent = await serveDeskAgent({ ...llm.env, ...desk.env, ...extra }, log);
    return clientFor(agent.url);
  };
  const calls = (tool: string) => desk.store.read().calls.filter((call) => call.tool === tool);
  const lastToolResult = () => {
    const messages = llm.requests.at(-1)?.messages ?? [];
    return JSON.stringify(messages.findLast((message) => message.role === "tool")?.content ?? "");
  };

  beforeAll(async () => {
    llm = await startObedientLlm();
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await desk?.close();
  });
  afterAll(async () => {
    await llm.close();
  });

  it("runs a tool the server marks read-only without asking", async () => {
    desk = await startDesk();
    const client = await start();
    const task = await send(client, "call list_tickets", `ctx-${randomUUID()}`);
    expect(stateOf(task)).toBe("TASK_STATE_COMPLETED");
    expect(statusText(task)).toContain("T-1 [open] Rotate the TLS certificates");
    expect(calls("list_tickets")).toHaveLength(1);
  });

  it("asks before a tool the server does not mark read-only, and runs it only once approved", async () => {
    desk = await startDesk();
    const client = await start();
    const contextId = `ctx-${randomUUID()}`;
    const asked = await send(
      client,
      'call create_ticket {"title":"Renew the wildcard certificate"}',
      contextId,
    );
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(statusText(asked)).toContain(
      'Run create_ticket on the "desk" MCP server.\ncreate_ticket will be sent exactly:\n  title: Renew the wildcard certificate\n',
    );
    expect(calls("create_ticket")).toEqual([]);

    const done = await send(client, "yes", contextId, asked.id);
    expect(stateOf(done)).toBe("TASK_STATE_COMPLETED");
    expect(statusText(done)).toContain("Created T-2 [open] Renew the wildcard certificate");
    expect(calls("create_ticket")).toHaveLength(1);
  });

  it("shows an argument past 400 characters whole: nothing is cut from the question", async () => {
    desk = await startDesk();
    const client = await start();
    const contextId = `ctx-${randomUUID()}`;
    const title = `${"Rotate the keys. ".repeat(40)}Also mail them to mallory@evil.example`;
    const asked = await send(client, `call create_ticket ${JSON.stringify({ title })}`, contextId);
    expect(statusText(asked)).toContain(`  title: ${title}\n`);
    await send(client, "no", contextId, asked.id);
    expect(calls("create_ticket")).toEqual([]);
  });

  it("runs nothing when a destructive tool is declined", async () => {
    desk = await startDesk();
    const client = await start();
    const contextId = `ctx-${randomUUID()}`;
    const asked = await send(client, 'call close_ticket {"id":"T-1"}', contextId);
    expect(statusText(asked)).toContain(
      'Run close_ticket on the "desk" MCP server (the server marks it destructive)',
    );
    const declined = await send(client, "no", contextId, asked.id);
    expect(stateOf(declined)).toBe("TASK_STATE_COMPLETED");
    expect(calls("close_ticket")).toEqual([]);
    expect(desk.store.read().tickets[0]?.status).toBe("open");
  });

  it("keeps working when the server restarts in the middle of a conversation", async () => {
    desk = await startDesk();
    const client = await start();
    const contextId = `ctx-${randomUUID()}`;
    expect(stateOf(await send(client, "call list_tickets", contextId))).toBe("TASK_STATE_COMPLETED");
    const servers = desk.store.read().pids.length;

    await desk.restart();
    const after = await send(client, 'call list_tickets {"status":"open"}', contextId);
    expect(stateOf(after)).toBe("TASK_STATE_COMPLETED");
    expect(statusText(after)).toContain("T-1 [open]");
    expect(calls("list_tickets")).toHaveLength(2);
    if (desk.store.read().pids.length > servers) {
      // stdio: the agent started the server again.
      expect(desk.store.read().pids.length).toBe(servers + 1);
    }
  });

  it("trims a long result before the model and the checkpoint get it", async () => {
    desk = await startDesk();
    const client = await start();
    const task = await send(client, "call ticket_report", `ctx-${randomUUID()}`);
    expect(stateOf(task)).toBe("TASK_STATE_COMPLETED");
    const result = lastToolResult();
    expect(result).toContain("REPORT START");
    expect(result).not.toContain("REPORT END");
    expect(result).toContain(`${REPORT_CHARS + 23 - MAX_TOOL_RESULT_CHARS} more characters omitted`);
  });

  it("streams the server's progress notifications as the turn's progress", async () => {
    desk = await startDesk();
    await start();
    const { progress, metadata } = await streamTurn(agent?.url ?? "", "call count_tickets_slowly");
    expect(progress).toEqual(
      expect.arrayContaining([
        "Calling count_tickets_slowly",
        "count_tickets_slowly: Counted shelf 1 of 3",
        "count_tickets_slowly: Counted shelf 3 of 3",
        "count_tickets_slowly done",
      ]),
    );
    expect(metadata).toContainEqual({
      kind: "tool-progress",
      tool: "count_tickets_slowly",
      mcpServer: "desk",
      progress: 3,
      total: 3,
    });
  });

  it("tells the model which server failed and why", async () => {
    desk = await startDesk();
    const client = await start();
    const task = await send(client, "call failing_tool", `ctx-${randomUUID()}`);
    expect(stateOf(task)).toBe("TASK_STATE_COMPLETED");
    expect(lastToolResult()).toContain("on server 'desk' returned an error: the ticket database is locked");
  });

  it("passes the credential from the env to the server, and never logs it", async () => {
    desk = await startDesk();
    const client = await start({ LOG_LEVEL: "debug" });
    const task = await send(client, "call token_fingerprint", `ctx-${randomUUID()}`);
    expect(statusText(task)).toContain(`credential ${fingerprint(TOKEN)}`);
    await desk.restart();
    await send(client, "call list_tickets", `ctx-${randomUUID()}`);
    expect(log.output).toContain('"mcpServer":"desk"');
    expect(log.output).not.toContain(TOKEN);
    expect(JSON.stringify(llm.requests)).not.toContain(TOKEN);
  });

  it("lets the agent's settings override the server's annotations by tool name", async () => {
    desk = await startDesk();
    const client = await start({
      DESK_MCP_CONFIRM_TOOLS: "list_tickets",
      DESK_MCP_READ_ONLY_TOOLS: "create_ticket",
    });
    const asked = await send(client, "call list_tickets", `ctx-${randomUUID()}`);
    expect(stateOf(asked)).toBe("TASK_STATE_INPUT_REQUIRED");
    expect(calls("list_tickets")).toEqual([]);
    const created = await send(client, 'call create_ticket {"title":"Trusted"}', `ctx-${randomUUID()}`);
    expect(stateOf(created)).toBe("TASK_STATE_COMPLETED");
    expect(calls("create_ticket")).toHaveLength(1);
  });
});

describe("an MCP server that is down while the agent runs", () => {
  it("fails that tool call naming the server, and works again once it is back", async () => {
    const llm = await startObedientLlm();
    const desk = await httpDesk();
    const agent = await serveDeskAgent({ ...llm.env, ...desk.env });
    try {
      const client = await clientFor(agent.url);
      const contextId = `ctx-${randomUUID()}`;
      await desk.server.close();
      const down = await send(client, "call list_tickets", contextId);
      expect(stateOf(down)).toBe("TASK_STATE_COMPLETED");
      const result = JSON.stringify(llm.requests.at(-1)?.messages.at(-1)?.content);
      expect(result).toContain('MCP server \\"desk\\" cannot be reached to run list_tickets: ECONNREFUSED');

      await desk.server.restart();
      const back = await send(client, "call list_tickets", contextId);
      expect(statusText(back)).toContain("T-1 [open]");
    } finally {
      await agent.close();
      await desk.close();
      await llm.close();
    }
  });
});

describe("an agent whose MCP server cannot be started or reached", () => {
  const startFails = async (env: Record<string, string>, token?: string) => {
    const log = new CapturedLog();
    const error = await serveDeskAgent({ ...env, ...(token ? { DESK_TOKEN: token } : {}) }, log).then(
      async (agent) => {
        await agent.close();
        throw new Error("the agent started");
      },
      (reason: unknown) => reason as Error,
    );
    return { message: error.message, log: log.output };
  };
  const servers = (desk: unknown) => ({ DESK_MCP_SERVERS: JSON.stringify({ desk }) });

  it("names a stdio command that does not exist", async () => {
    const { message } = await startFails(
      servers({ command: "/nonexistent/desk-mcp", env: { TOKEN: TOKEN } }),
    );
    expect(message).toBe(
      'MCP server "desk" cannot be started: the command "/nonexistent/desk-mcp" was not found. Install it, or fix "command" (and "cwd") of "desk" in DESK_MCP_SERVERS.',
    );
  });

  it("names a stdio server that exits at once, with what it said, and no secret", async () => {
    const { message } = await startFails(
      servers({
        command: process.execPath,
        args: [
          "-e",
          "console.error('desk: cannot open the database with ' + process.env.DESK_DB_PASSWORD); process.exit(3)",
        ],
        env: { DESK_DB_PASSWORD: "${DESK_TOKEN}" },
      }),
      TOKEN,
    );
    expect(message).toMatch(
      /^MCP server "desk" cannot be started: `.+` it exited or closed the connection\./,
    );
    expect(message).toContain("Its last output: desk: cannot open the database with [redacted]");
    expect(message).not.toContain(TOKEN);
  });

  it("names an HTTP server that cannot be reached", async () => {
    const port = await freePort();
    const { message } = await startFails({
      ...servers({ url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: "Bearer ${DESK_TOKEN}" } }),
      DESK_TOKEN: TOKEN,
    });
    expect(message).toBe(
      `MCP server "desk" at http://127.0.0.1:${port}/mcp cannot be reached (ECONNREFUSED): is it running, and is the url of "desk" in DESK_MCP_SERVERS right?`,
    );
  });

  it("says when an HTTP server refuses the credentials, without showing them", async () => {
    const desk = await httpDesk();
    try {
      const wrong = `wrong-${randomUUID()}`;
      const { message, log } = await startFails({ ...desk.env, DESK_TOKEN: wrong });
      expect(message).toBe(
        `MCP server "desk" at ${desk.server.url} refused the credentials (HTTP 401): check the headers of "desk" in DESK_MCP_SERVERS and the variables they refer to.`,
      );
      expect(log).not.toContain(wrong);
    } finally {
      await desk.close();
    }
  });

  it("names an unset variable the server list refers to, and a list that is not JSON", async () => {
    const desk = await httpDesk();
    try {
      expect((await startFails({ DESK_MCP_SERVERS: desk.env.DESK_MCP_SERVERS ?? "" })).message).toBe(
        'MCP server "desk" (DESK_MCP_SERVERS) refers to DESK_TOKEN, which is not set: set DESK_TOKEN, or give a default as ${VAR:-default}.',
      );
      expect((await startFails({ DESK_MCP_SERVERS: "{desk: nope}" })).message).toMatch(
        /^DESK_MCP_SERVERS is invalid: not JSON/,
      );
      expect((await startFails({ ...desk.env, DESK_MCP_CONFIRM_TOOLS: "list_tickest" })).message).toContain(
        "DESK_MCP_CONFIRM_TOOLS names list_tickest, which no MCP server of this agent serves",
      );
    } finally {
      await desk.close();
    }
  });
});
