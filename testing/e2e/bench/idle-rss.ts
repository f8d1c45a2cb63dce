// pnpm bench:rss — each agent's resident memory, started as deployed (MongoDB checkpoints, an
// OpenAI-compatible model: the scripted LLM), one agent at a time: at rest after start-up, and at
// rest again after BENCH_TURNS one-message conversations (default 20). RSS is what `ps` reports
// after BENCH_IDLE_SECONDS of quiet (default 5); the aim is ≤ 120 MB at rest.
// MongoDB: MONGODB_URI if set, else the test MongoDB (mongo-java-server).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAgent } from "@switchboard/a2a-client";
import { listAgentPackages } from "@switchboard/contract";
import { startAgentProcess } from "@switchboard-testing/test-agents";
import { say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 5) * 1000;
const AIM_MB = 120;
const repoRoot = join(import.meta.dirname, "..", "..", "..");

const rssMb = (pid: number) =>
  Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) / 1024;

const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
const llm = await startScriptedLlm({ script: () => say("ok") });
const rows: string[] = [];
try {
  for (const agent of listAgentPackages(repoRoot)) {
    const running = await startAgentProcess(agent.dir, {
      env: {
        MONGODB_URI: process.env.MONGODB_URI ?? mongo?.uri ?? "",
        LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_rss_${Date.now()}`,
        LLM_PROVIDER: "openai",
        OPENAI_API_KEY: "sk-bench",
        OPENAI_BASE_URL: llm.url,
        OPENAI_MODEL_NAME: "gpt-4o-mini",
        LOG_LEVEL: "warn",
      },
    });
    try {
      await sleep(IDLE_MS);
      const atRest = rssMb(running.pid);
      const client = await connectAgent(running.url);
      for (let turn = 0; turn < TURNS; turn++) await client.send({ text: "hello", contextId: randomUUID() });
      await sleep(IDLE_MS);
      const afterTurns = rssMb(running.pid);
      const verdict = atRest <= AIM_MB ? "ok" : "over";
      rows.push(
        `| ${agent.name.padEnd(10)} | ${atRest.toFixed(0).padStart(11)} | ${afterTurns.toFixed(0).padStart(19)} | ${verdict.padEnd(10)} |`,
      );
    } finally {
      await running.kill("SIGTERM");
    }
  }
} finally {
  await llm.close();
  await mongo?.stop();
}
console.log(
  `\nResident memory per agent process (MB), at rest ${IDLE_MS / 1000} s after start and after ${TURNS} turns\n`,
);
console.log(`| agent      | at rest, MB | after ${String(TURNS).padEnd(2)} turns, MB | ≤ ${AIM_MB} MB   |`);
console.log("| ---------- | ----------- | ------------------- | ---------- |");
for (const row of rows) console.log(row);
