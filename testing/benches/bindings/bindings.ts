// `pnpm bench:bindings`: what each way in costs, side by side in one run against one fleet (the Jira
// agent and the supervisor as `npm start` runs them, the web chat's server, the MCP server), with a
// scripted model that answers at once (BENCH_TOKEN_MS between words, default 10).
// 1. One hop: a turn sent straight to the Jira agent (a one-word answer, blocking) over A2A's three
//    bindings, JSON-RPC, HTTP+JSON and gRPC, with the SDK's client for each: p50/p95, and CPU per turn
//    in the agent's process and in the client's. Blocks of BENCH_TURNS turns per binding, in turn,
//    BENCH_ROUNDS times, so a slow spell lands on all alike.
// 2. First word: the supervisor telling a 24-word story, from the request to its first word, over the
//    surfaces people use: A2A streaming (the a2a-client), the web chat (the same stream through the web
//    chat's server, as the page reads it), AG-UI (`POST /ag-ui`, the official @ag-ui/client) and MCP
//    (tools/mcp-server's ask_switchboard, the official MCP client over Streamable HTTP). BENCH_FIRST_WORDS
//    turns per surface, in turn.
// Targets (issue 50): gRPC at least as fast as JSON-RPC; every surface's first word within 50 ms of the
// web chat's. Conversations in memory (LANGGRAPH_CHECKPOINT_TYPE=memory) unless MONGODB_URI is set.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Message, type SendMessageRequest, type Task, TaskState } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type TransportFactory,
} from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";
import { EventType, HttpAgent } from "@ag-ui/client";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connectAgent } from "@switchboard/a2a-client";
import { type AgentProcess, onlyAgents, startAgentProcess, startFleet } from "@switchboard/fleet";
import { startFakeJira } from "@switchboard-testing/fake-jira";
import { cpuMs, freePort } from "@switchboard-testing/test-agents";
import { rules, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { benchReport } from "../src/readme.js";

const report = benchReport(new URL("./README.md", import.meta.url), "bindings");
const repoRoot = join(import.meta.dirname, "..", "..", "..");

const TURNS = Number(process.env.BENCH_TURNS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FIRST_WORDS = Number(process.env.BENCH_FIRST_WORDS ?? 30);
const TOKEN_MS = Number(process.env.BENCH_TOKEN_MS ?? 10);
const STORY = Array.from({ length: 24 }, (_, i) => `word${i + 1}`).join(" ");
const hasWord = (text: string) => /\bword\d+\b/.test(text);

// The Jira agent answers "ping" with one word; the supervisor tells the story itself (no hop).
const script = rules(
  [
    { lastUser: /ping/, reply: say("pong") },
    { lastUser: /tell a story/, reply: say(STORY) },
  ],
  say("?"),
);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => value.toFixed(1);

/** A client on one binding only: a call that reached the agent spoke that binding. */
function clientOn(url: string, binding: "JSONRPC" | "HTTP+JSON" | "GRPC"): Promise<Client> {
  const transports: Record<typeof binding, TransportFactory> = {
    JSONRPC: new JsonRpcTransportFactory(),
    "HTTP+JSON": new RestTransportFactory(),
    GRPC: new GrpcTransportFactory(),
  };
  return new ClientFactory({
    transports: [transports[binding]],
    preferredTransports: [binding],
  }).createFromUrl(url);
}

function ping(): SendMessageRequest {
  return {
    tenant: "",
    message: Message.fromJSON({
      messageId: randomUUID(),
      contextId: randomUUID(),
      role: "ROLE_USER",
      parts: [{ text: "ping" }],
    }),
    configuration: undefined,
    metadata: undefined,
  };
}

interface HopRow {
  binding: string;
  latencies: number[];
  agentCpuMs: number;
  clientCpuMs: number;
  turns: number;
}

async function hops(jira: AgentProcess): Promise<HopRow[]> {
  const bindings = ["JSONRPC", "HTTP+JSON", "GRPC"] as const;
  const clients = new Map<string, Client>();
  for (const binding of bindings) clients.set(binding, await clientOn(jira.url, binding));
  const rows = new Map<string, HopRow>(
    bindings.map((binding) => [binding, { binding, latencies: [], agentCpuMs: 0, clientCpuMs: 0, turns: 0 }]),
  );
  // A warm-up block each (JIT, connections), not counted.
  for (const binding of bindings)
    for (let i = 0; i < 10; i++) await clients.get(binding)?.sendMessage(ping());
  for (let round = 0; round < ROUNDS; round++) {
    for (const binding of bindings) {
      process.stderr.write(`one hop over ${binding}: round ${round + 1} of ${ROUNDS}\n`);
      const client = clients.get(binding) as Client;
      const row = rows.get(binding) as HopRow;
      const agentBefore = cpuMs([jira.pid]);
      const clientBefore = process.cpuUsage();
      for (let i = 0; i < TURNS; i++) {
        const start = performance.now();
        const answer = (await client.sendMessage(ping())) as Task;
        row.latencies.push(performance.now() - start);
        if (answer.status?.state !== TaskState.TASK_STATE_COMPLETED)
          throw new Error(`${binding}: the turn ended ${answer.status?.state}, not completed`);
      }
      const clientUsed = process.cpuUsage(clientBefore);
      row.agentCpuMs += cpuMs([jira.pid]) - agentBefore;
      row.clientCpuMs += (clientUsed.user + clientUsed.system) / 1000;
      row.turns += TURNS;
    }
  }
  return [...rows.values()];
}

/** One turn on a surface: ms from the request to the answer's first word, and to its end. */
type Surface = (text: string) => Promise<{ first: number; whole: number }>;

/** A2A streaming with the a2a-client, to `url` (the supervisor, or the web chat's server): ms to the first word. */
async function a2aFirstWord(url: string): Promise<Surface> {
  const connection = await connectAgent(url);
  return async (text) => {
    const start = performance.now();
    let first = Number.NaN;
    for await (const event of connection.stream({ text, contextId: randomUUID() })) {
      if (Number.isNaN(first) && event.kind === "artifact" && hasWord(event.text))
        first = performance.now() - start;
    }
    return { first, whole: performance.now() - start };
  };
}

/** AG-UI with the official client: ms to the first TEXT_MESSAGE_CONTENT holding a word. */
function agUiFirstWord(supervisorUrl: string): Surface {
  return async (text) => {
    const agent = new HttpAgent({ url: `${supervisorUrl}/ag-ui`, threadId: randomUUID() });
    agent.addMessage({ id: randomUUID(), role: "user", content: text });
    const start = performance.now();
    let first = Number.NaN;
    await agent.runAgent(
      {},
      {
        onEvent: ({ event }) => {
          if (!Number.isNaN(first) || event.type !== EventType.TEXT_MESSAGE_CONTENT) return;
          if (hasWord((event as { delta?: string }).delta ?? "")) first = performance.now() - start;
        },
      },
    );
    return { first, whole: performance.now() - start };
  };
}

/**
 * MCP's ask_switchboard with the official client: ms to the first progress notification that shows
 * the answer's words (the answer so far while it is written), and to the result (sent once, whole).
 */
async function mcpFirstWord(mcpUrl: string): Promise<{ surface: Surface; close: () => Promise<void> }> {
  const client = new McpClient({ name: "bench", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return {
    surface: async (text) => {
      const start = performance.now();
      let first = Number.NaN;
      const result = await client.callTool(
        { name: "ask_switchboard", arguments: { message: text } },
        undefined,
        {
          onprogress: (update) => {
            if (Number.isNaN(first) && hasWord(update.message ?? "")) first = performance.now() - start;
          },
        },
      );
      const whole = performance.now() - start;
      const shown = JSON.stringify(result.content ?? "");
      if (!hasWord(shown)) throw new Error(`MCP answered without the story: ${shown.slice(0, 300)}`);
      return { first: Number.isNaN(first) ? whole : first, whole };
    },
    close: () => client.close(),
  };
}

async function waitFor(url: string, what: string): Promise<void> {
  for (let waited = 0; waited < 120_000; waited += 200) {
    if (
      await fetch(url).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} (${url}) did not answer within two minutes`);
}

async function main(): Promise<void> {
  const [llm, jiraApi] = await Promise.all([
    startScriptedLlm({ script, tokenIntervalMs: TOKEN_MS }),
    startFakeJira(),
  ]);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LOG_LEVEL: "warn",
    ...(process.env.MONGODB_URI
      ? {
          MONGODB_URI: process.env.MONGODB_URI,
          LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_bindings_${Date.now()}`,
        }
      : { LANGGRAPH_CHECKPOINT_TYPE: "memory" }),
    ...llm.env,
    ATLASSIAN_API_URL: jiraApi.url,
    ATLASSIAN_EMAIL: jiraApi.email,
    ATLASSIAN_TOKEN: jiraApi.token,
    ...onlyAgents(repoRoot, ["jira"]),
    SUPERVISOR_PORT: String(await freePort()),
    JIRA_AGENT_PORT: String(await freePort()),
    WEB_PORT: String(await freePort()),
  };
  const fleet = await startFleet({ root: repoRoot, env });
  let mcp: AgentProcess | undefined;
  let mcpClient: Awaited<ReturnType<typeof mcpFirstWord>> | undefined;
  try {
    if (fleet.failed.length > 0) throw new Error(`The fleet did not start: ${JSON.stringify(fleet.failed)}`);
    const jira = fleet.agents.find((agent) => agent.name === "jira")?.process;
    if (!jira || !fleet.web) throw new Error("The Jira agent or the web chat did not start.");
    const supervisorUrl = fleet.supervisor.url;
    await Promise.all([
      waitFor(`${jira.url}/ready`, "the Jira agent"),
      waitFor(`${supervisorUrl}/ready`, "the supervisor"),
    ]);
    mcp = await startAgentProcess(join(repoRoot, "tools", "mcp-server"), {
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: "warn",
        PORT: "0",
        HOST: "127.0.0.1",
        CAIPE_URL: supervisorUrl,
      },
    });
    await waitFor(`${mcp.url}/ready`, "the MCP server");

    const hopRows = await hops(jira);

    mcpClient = await mcpFirstWord(`${mcp.url}/mcp`);
    const surfaces: Record<string, Surface> = {
      "web chat (its server's A2A stream)": await a2aFirstWord(fleet.web.url),
      "A2A stream (a2a-client)": await a2aFirstWord(supervisorUrl),
      "AG-UI (POST /ag-ui)": agUiFirstWord(supervisorUrl),
      "MCP (ask_switchboard)": mcpClient.surface,
    };
    const firstWords = new Map<string, Array<{ first: number; whole: number }>>(
      Object.keys(surfaces).map((name) => [name, []]),
    );
    for (let round = 0; round < FIRST_WORDS + 1; round++) {
      for (const [name, surface] of Object.entries(surfaces)) {
        const first = await surface("tell a story");
        if (Number.isNaN(first.first)) throw new Error(`${name}: no word of the answer arrived`);
        // Round 0 warms each surface up.
        if (round > 0) firstWords.get(name)?.push(first);
      }
      if (round % 10 === 0) process.stderr.write(`first word: round ${round} of ${FIRST_WORDS}\n`);
    }
    printTables(hopRows, firstWords);
  } finally {
    await mcpClient?.close();
    await mcp?.kill("SIGTERM");
    await fleet.stop();
    await Promise.all([llm.close(), jiraApi.close()]);
  }
}

function printTables(
  hopRows: HopRow[],
  firstWords: Map<string, Array<{ first: number; whole: number }>>,
): void {
  report.print(
    `\nOne hop: a turn straight to the Jira agent, answered with one word by a scripted model; ${ROUNDS} blocks of ${TURNS} turns per binding, in turn\n`,
  );
  report.print("| binding | p50 ms | p95 ms | agent CPU ms/turn | client CPU ms/turn |");
  report.print("| --- | ---: | ---: | ---: | ---: |");
  for (const row of hopRows) {
    report.print(
      `| ${row.binding} | ${ms(quantile(row.latencies, 0.5))} | ${ms(quantile(row.latencies, 0.95))} | ${ms(row.agentCpuMs / row.turns)} | ${ms(row.clientCpuMs / row.turns)} |`,
    );
  }
  const p50 = (binding: string) =>
    quantile(hopRows.find((row) => row.binding === binding)?.latencies ?? [], 0.5);
  const [grpc, jsonRpc] = [p50("GRPC"), p50("JSONRPC")];
  report.print(
    `\nTarget, gRPC at least as fast as JSON-RPC (p50): ${grpc <= jsonRpc ? "met" : "missed"} (${ms(grpc)} ms against ${ms(jsonRpc)} ms, ${(grpc / jsonRpc).toFixed(2)}×).`,
  );

  report.print(
    `\nFirst word: the supervisor telling a 24-word story itself (a word every ${TOKEN_MS} ms after the first), from the request to its first word; ${FIRST_WORDS} turns per surface, in turn\n`,
  );
  report.print(
    "| surface | first word p50 ms | p95 ms | p50 beside the web chat's | target (≤ +50 ms) | whole answer p50 ms |",
  );
  report.print("| --- | ---: | ---: | ---: | --- | ---: |");
  const firsts = (turns: Array<{ first: number }>) => turns.map((turn) => turn.first);
  const webP50 = quantile(firsts([...firstWords.values()][0] ?? []), 0.5);
  for (const [name, turns] of firstWords) {
    const delta = quantile(firsts(turns), 0.5) - webP50;
    const whole = quantile(
      turns.map((turn) => turn.whole),
      0.5,
    );
    report.print(
      `| ${name} | ${ms(quantile(firsts(turns), 0.5))} | ${ms(quantile(firsts(turns), 0.95))} | ${delta >= 0 ? "+" : ""}${ms(delta)} | ${delta <= 50 ? "met" : `missed by ${ms(delta - 50)} ms`} | ${ms(whole)} |`,
    );
  }
  report.print(
    "\nThe web chat's row is the stream its page reads (the supervisor's A2A stream through the web chat's server), without the page's rendering. MCP's first word is the first progress notification showing the answer so far (the tool's result comes once, whole, in the last column).",
  );
}

await main();
report.save();
