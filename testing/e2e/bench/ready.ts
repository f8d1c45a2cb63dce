// pnpm bench:ready — how fast each agent (and the supervisor) is ready to serve when the cluster
// scales: the time from the process's start to its first 200 on GET /ready, over BENCH_STARTS
// starts (default 10, one process at a time), and the time the first turn takes after that (a new
// conversation, "hello", answered by the scripted model at once), started as deployed (MongoDB
// checkpoints, an OpenAI-compatible model: the scripted LLM, the node options agents ship with).
// Target: ready ≤ 1.5 s at p50. BENCH_AGENTS: a comma-separated list of agents to measure (default all).
// BENCH_CPU_PROF=DIR: each start writes a V8 CPU profile there (node --cpu-prof), to see what is slow.
// MongoDB: MONGODB_URI if set, else the test MongoDB (mongo-java-server).
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAgent } from "@switchboard/a2a-client";
import { listAgentPackages } from "@switchboard/contract";
import { benchReport } from "@switchboard-testing/benches";
import { cpuMs, startAgentProcess } from "@switchboard-testing/test-agents";
import { say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";

const report = benchReport(new URL("./README.md", import.meta.url), "ready");

const STARTS = Number(process.env.BENCH_STARTS ?? 10);
const TARGET_MS = 1_500;
const repoRoot = join(import.meta.dirname, "..", "..", "..");
const only = process.env.BENCH_AGENTS?.split(",").map((name) => name.trim());
const profiles = process.env.BENCH_CPU_PROF;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** Polls GET /ready until it answers 200; the time it did, as performance.now(). */
async function readyAt(url: string): Promise<number> {
  for (;;) {
    const ok = await fetch(`${url}/ready`)
      .then((response) => response.ok)
      .catch(() => false);
    if (ok) return performance.now();
    await sleep(5);
  }
}

interface Row {
  agent: string;
  ready: number[];
  readyCpu: number[];
  firstTurn: number[];
  problem?: string;
}

const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
const llm = await startScriptedLlm({ script: () => say("ok") });
const env = {
  MONGODB_URI: process.env.MONGODB_URI ?? mongo?.uri ?? "",
  LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_ready_${Date.now()}`,
  ...llm.env,
  LOG_LEVEL: "warn",
};
const agents = listAgentPackages(repoRoot).filter((agent) => !only || only.includes(agent.name));
const rows: Row[] = agents.map((agent) => ({ agent: agent.name, ready: [], readyCpu: [], firstTurn: [] }));
try {
  console.log(`${STARTS} starts of each of ${agents.length} agents, one process at a time…`);
  // Round by round over the agents, so a slow spell of the (shared) machine lands on all alike.
  for (let start = 0; start < STARTS; start++) {
    for (const [index, agent] of agents.entries()) {
      const row = rows[index] as Row;
      if (row.problem) continue;
      const started = performance.now();
      try {
        const agentProcess = await startAgentProcess(agent.dir, {
          env,
          ...(profiles ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profiles}`] } : {}),
        });
        try {
          const ready = await readyAt(agentProcess.url);
          row.ready.push(ready - started);
          row.readyCpu.push(cpuMs([agentProcess.pid]));
          const connection = await connectAgent(agentProcess.url);
          const result = await connection.send({ text: "hello", contextId: randomUUID() });
          if (result.state !== "completed") throw new Error(`first turn ${result.state}: ${result.text}`);
          row.firstTurn.push(performance.now() - ready);
        } finally {
          await agentProcess.kill("SIGTERM");
        }
      } catch (error) {
        row.problem = error instanceof Error ? error.message.split("\n")[0] : String(error);
      }
    }
  }
} finally {
  await llm.close();
  await mongo?.stop();
}

report.print(
  `\nProcess start → GET /ready answers 200, and the first turn after that (new conversation), over ${STARTS} starts\n`,
);
report.print(
  "| agent | ready p50 ms | ready p95 ms | CPU ms to ready p50 | first turn p50 ms | first turn p95 ms | ready ≤ 1.5 s |",
);
report.print("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
for (const row of rows) {
  if (row.problem && row.ready.length === 0) {
    report.print(`| ${row.agent} | — | — | — | — | — | could not start: ${row.problem} |`);
    continue;
  }
  const p50 = quantile(row.ready, 0.5);
  report.print(
    `| ${row.agent} | ${p50.toFixed(0)} | ${quantile(row.ready, 0.95).toFixed(0)} | ${quantile(row.readyCpu, 0.5).toFixed(0)} | ${quantile(row.firstTurn, 0.5).toFixed(0)} | ${quantile(row.firstTurn, 0.95).toFixed(0)} | ${p50 <= TARGET_MS ? "yes" : `no, by ${(p50 - TARGET_MS).toFixed(0)} ms`} |`,
  );
}
report.save();
