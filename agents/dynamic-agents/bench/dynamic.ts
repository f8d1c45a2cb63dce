// pnpm bench:dynamic — one dynamic-agents host with 1, 10 and 100 configured agents (BENCH_AGENTS),
// each run its own host process, against one scripted model (BENCH_LLM_LATENCY_MS before each reply)
// and one MongoDB (MONGODB_URI, else the test MongoDB's server):
//   idle RSS          the host process's resident memory after BENCH_IDLE_SECONDS of quiet (aim at 100: ≤ 400 MB);
//   saved → answer    from POST /api/v1/agents to that new agent's first answer, p50 of BENCH_SAVES (aim: ≤ 1 s);
//   turn overhead     a one-message turn's p50 (BENCH_TURNS) less the model's own time, beside a
//                     packaged agent's (Switchboard's weather agent, started as deployed, same model).
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAgent } from "@switchboard/a2a-client";
import { benchReport } from "@switchboard-testing/benches";
import { type AgentProcess, rssMb, startAgentProcess } from "@switchboard-testing/test-agents";
import { say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { stringify } from "yaml";

const report = benchReport(new URL("./README.md", import.meta.url), "dynamic");
const hostDir = join(import.meta.dirname, "..");
const SIZES = (process.env.BENCH_AGENTS ?? "1,10,100").split(",").map(Number);
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 30) * 1000;
const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const SAVES = Number(process.env.BENCH_SAVES ?? 5);
const LATENCY_MS = Number(process.env.BENCH_LLM_LATENCY_MS ?? 100);
const RSS_AIM_MB = 400;
const SAVED_AIM_MS = 1000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One configured agent as CAIPE's file writes it. */
const agentEntry = (index: number) => ({
  id: `agent-${index}`,
  name: `Agent ${index}`,
  description: `Configured agent number ${index}`,
  system_prompt: "You answer briefly.",
  model_id: "gpt-4o-mini",
  model_provider: "openai",
  visibility: "global",
  allowed_tools: {},
  subagents: [],
  enabled: true,
});

/** p50 of `TURNS` one-message turns on the agent at `url`, ms. */
async function turnP50(url: string): Promise<number> {
  const client = await connectAgent(url);
  await client.send({ text: "warm up", contextId: randomUUID() });
  const times: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const start = performance.now();
    const answer = await client.send({ text: "hello", contextId: randomUUID() });
    if (answer.state !== "completed") throw new Error(`a turn ended ${answer.state}: ${answer.text}`);
    times.push(performance.now() - start);
  }
  return median(times);
}

/** From the API's POST to the new agent's first answer, ms. */
async function savedToAnswer(hostUrl: string): Promise<number> {
  const id = `saved-${randomUUID().slice(0, 8)}`;
  const start = performance.now();
  const created = await fetch(`${hostUrl}/api/v1/agents`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...agentEntry(0), id, name: id }),
  });
  if (!created.ok) throw new Error(`POST /api/v1/agents answered ${created.status}: ${await created.text()}`);
  const answer = await (await connectAgent(`${hostUrl}/agents/${id}`)).send({
    text: "hello",
    contextId: randomUUID(),
  });
  if (answer.state !== "completed") throw new Error(`the new agent's first turn ended ${answer.state}`);
  const elapsed = performance.now() - start;
  await fetch(`${hostUrl}/api/v1/agents/${id}`, { method: "DELETE" });
  return elapsed;
}

interface Row {
  agents: number;
  startSeconds: number;
  idleMb: number;
  savedP50: number;
  turnP50: number;
}

const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
const mongoUri = process.env.MONGODB_URI ?? mongo?.uri ?? "";
const llm = await startScriptedLlm({ script: () => say("ok"), latencyMs: LATENCY_MS });
const scratch = mkdtempSync(join(tmpdir(), "bench-dynamic-"));
const rows: Row[] = [];
let packagedP50 = 0;
try {
  for (const size of SIZES) {
    const file = join(scratch, `app-config-${size}.yaml`);
    writeFileSync(
      file,
      stringify({ agents: Array.from({ length: size }, (_, index) => agentEntry(index + 1)) }),
    );
    console.log(`A host with ${size} configured agents…`);
    const started = performance.now();
    const host: AgentProcess = await startAgentProcess(hostDir, {
      timeoutMs: 600_000,
      env: {
        MONGODB_URI: mongoUri,
        LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_dynamic_${size}_${Date.now()}`,
        ...llm.env,
        APP_CONFIG_FILE: file,
        LOG_LEVEL: "warn",
      },
    });
    const startSeconds = (performance.now() - started) / 1000;
    try {
      await sleep(IDLE_MS);
      const idleMb = rssMb([host.pid]);
      const saves: number[] = [];
      for (let save = 0; save < SAVES; save++) saves.push(await savedToAnswer(host.url));
      const turn = await turnP50(`${host.url}/agents/agent-1`);
      rows.push({ agents: size, startSeconds, idleMb, savedP50: median(saves), turnP50: turn });
    } finally {
      await host.kill("SIGTERM");
    }
  }
  console.log("Switchboard's packaged weather agent, for the turn beside…");
  const weather = await startAgentProcess(join(hostDir, "..", "weather"), {
    env: {
      MONGODB_URI: mongoUri,
      LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_dynamic_weather_${Date.now()}`,
      ...llm.env,
      LOG_LEVEL: "warn",
    },
  });
  try {
    packagedP50 = await turnP50(weather.url);
  } finally {
    await weather.kill("SIGTERM");
  }
} finally {
  await llm.close();
  await mongo?.stop();
}

const verdict = (ok: boolean) => (ok ? "ok" : "over");
report.print(
  `\nOne host process per row; the model answers after ${LATENCY_MS} ms; RSS after ${IDLE_MS / 1000} s idle; p50 of ${SAVES} saves and ${TURNS} turns\n`,
);
report.print(
  "| agents | start (s) | idle RSS (MB) | saved → first answer (ms) | turn p50 (ms) | turn overhead (ms) |",
);
report.print("|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  const rssNote = row.agents === 100 ? ` (${verdict(row.idleMb <= RSS_AIM_MB)})` : "";
  report.print(
    `| ${row.agents} | ${row.startSeconds.toFixed(1)} | ${row.idleMb.toFixed(0)}${rssNote} | ${row.savedP50.toFixed(0)} (${verdict(row.savedP50 <= SAVED_AIM_MS)}) | ${row.turnP50.toFixed(0)} | ${(row.turnP50 - LATENCY_MS).toFixed(0)} |`,
  );
}
report.print(
  `| packaged weather agent | | | | ${packagedP50.toFixed(0)} | ${(packagedP50 - LATENCY_MS).toFixed(0)} |`,
);
report.save();
