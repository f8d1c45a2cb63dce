// pnpm bench:rss — each agent's resident memory, started as deployed (MongoDB checkpoints, an
// OpenAI-compatible model: the scripted LLM), one agent process at a time: at rest after start-up,
// and at rest again after BENCH_TURNS one-message conversations (default 20), with the p50 of those
// turns. RSS is what `ps` reports after BENCH_IDLE_SECONDS of quiet (default 5); the issue's aim is
// ≤ 120 MB at rest.
// BENCH_NODE_OPTIONS_VARIANTS: the node options to compare, separated by ";", e.g.
// "default;--max-semi-space-size=2;--max-semi-space-size=4" (default: node's own defaults against
// AGENT_NODE_ARGS, what agents ship with, or against --max-semi-space-size=2 while none ship). Each agent runs once per variant, in
// a rotating order, so a slow spell of the machine lands on all variants alike.
// MongoDB: MONGODB_URI if set, else the test MongoDB (mongo-java-server).
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAgent } from "@switchboard/a2a-client";
import { listAgentPackages } from "@switchboard/contract";
import { nodeVariants, startAgentProcess } from "@switchboard-testing/test-agents";
import { say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 5) * 1000;
const AIM_MB = 120;
const repoRoot = join(import.meta.dirname, "..", "..", "..");
const variants = nodeVariants();

const rssMb = (pid: number) =>
  Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) / 1024;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / (values.length || 1);

interface Measurement {
  agent: string;
  variant: number;
  atRest: number;
  afterTurns: number;
  turnP50: number;
}

const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
const llm = await startScriptedLlm({ script: () => say("ok") });
const agents = listAgentPackages(repoRoot);
const measured: Measurement[] = [];
try {
  for (const [index, agent] of agents.entries()) {
    for (let i = 0; i < variants.length; i++) {
      const variant = (index + i) % variants.length;
      const running = await startAgentProcess(agent.dir, {
        agentNodeArgs: variants[variant]?.args ?? [],
        env: {
          MONGODB_URI: process.env.MONGODB_URI ?? mongo?.uri ?? "",
          LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_rss_${Date.now()}`,
          ...llm.env,
          LOG_LEVEL: "warn",
        },
      });
      try {
        await sleep(IDLE_MS);
        const atRest = rssMb(running.pid);
        const client = await connectAgent(running.url);
        const times: number[] = [];
        for (let turn = 0; turn < TURNS; turn++) {
          const start = performance.now();
          await client.send({ text: "hello", contextId: randomUUID() });
          times.push(performance.now() - start);
        }
        await sleep(IDLE_MS);
        measured.push({
          agent: agent.name,
          variant,
          atRest,
          afterTurns: rssMb(running.pid),
          turnP50: median(times),
        });
      } finally {
        await running.kill("SIGTERM");
      }
    }
  }
} finally {
  await llm.close();
  await mongo?.stop();
}

const verdict = (mb: number) => (mb <= AIM_MB ? "ok" : "over");
console.log(
  `\nResident memory per agent process (MB), at rest ${IDLE_MS / 1000} s after start and after ${TURNS} turns (p50 of those turns)\n`,
);
const width = Math.max(13, ...variants.map((variant) => variant.label.length));
console.log(
  `| agent      | ${"node options".padEnd(width)} | at rest, MB | ${`after ${TURNS} turns, MB`.padEnd(19)} | turn p50 ms | ≤ ${AIM_MB} MB |`,
);
console.log(
  `| ---------- | ${"-".repeat(width)} | ----------- | ------------------- | ----------- | -------- |`,
);
for (const agent of agents) {
  for (const [variant, { label }] of variants.entries()) {
    const row = measured.find((m) => m.agent === agent.name && m.variant === variant);
    if (!row) continue;
    console.log(
      `| ${agent.name.padEnd(10)} | ${label.padEnd(width)} | ${row.atRest.toFixed(0).padStart(11)} | ${row.afterTurns.toFixed(0).padStart(19)} | ${row.turnP50.toFixed(1).padStart(11)} | ${verdict(row.atRest).padEnd(8)} |`,
    );
  }
}

// Per variant over all agents, and against the first variant (the baseline; node's defaults by default).
const summary = variants.map((_, variant) => {
  const rows = measured.filter((m) => m.variant === variant);
  return {
    atRest: mean(rows.map((m) => m.atRest)),
    maxAtRest: Math.max(...rows.map((m) => m.atRest)),
    afterTurns: mean(rows.map((m) => m.afterTurns)),
    turnP50: mean(rows.map((m) => m.turnP50)),
    within: rows.filter((m) => m.atRest <= AIM_MB).length,
    count: rows.length,
  };
});
const base = summary[0];
const change = (value: number, baseline = 0) =>
  baseline ? `${value >= baseline ? "+" : ""}${(((value - baseline) / baseline) * 100).toFixed(0)}%` : "—";
console.log(`\nOver all ${agents.length} agents, each variant against the first (${variants[0]?.label}):\n`);
console.log(
  `| ${"node options".padEnd(width)} | mean at rest, MB | max at rest, MB | mean after turns, MB | mean turn p50 ms | agents ≤ ${AIM_MB} MB at rest |`,
);
console.log(
  `| ${"-".repeat(width)} | ---------------- | --------------- | -------------------- | ---------------- | ---------------------- |`,
);
for (const [variant, { label }] of variants.entries()) {
  const s = summary[variant];
  if (!s) continue;
  const cell = (value: number, baseline: number | undefined, digits = 0) =>
    `${value.toFixed(digits)} (${variant === 0 ? "base" : change(value, baseline)})`;
  console.log(
    `| ${label.padEnd(width)} | ${cell(s.atRest, base?.atRest).padStart(16)} | ${cell(s.maxAtRest, base?.maxAtRest).padStart(15)} | ${cell(s.afterTurns, base?.afterTurns).padStart(20)} | ${cell(s.turnP50, base?.turnP50, 1).padStart(16)} | ${`${s.within} of ${s.count}`.padStart(22)} |`,
  );
}
console.log(`\nAim: every agent ≤ ${AIM_MB} MB at rest.`);
for (const [variant, { label }] of variants.entries()) {
  const s = summary[variant];
  if (!s) continue;
  const met = s.within === s.count;
  console.log(
    `  ${label}: ${met ? "met" : "not met"} (${s.within} of ${s.count} agents; highest ${s.maxAtRest.toFixed(0)} MB)`,
  );
}
