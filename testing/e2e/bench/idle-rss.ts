// pnpm bench:rss — each agent's resident memory, started as deployed (MongoDB checkpoints, an
// OpenAI-compatible model: the scripted LLM), at four moments:
//   started    BENCH_STARTED_SECONDS after the process is ready (default 5);
//   idle       after BENCH_IDLE_SECONDS of quiet (default 150);
//   used       just after BENCH_TURNS one-message conversations (default 20), with their p50;
//   used, idle after BENCH_IDLE_SECONDS of quiet again.
// V8 gives memory back only once a process has been quiet for a while (its memory reducer runs a
// compacting GC and shrinks the young generation about a minute into a quiet spell), so "idle" is
// what an agent holds between conversations, and "started" the peak of start-up. The issue's aim
// is ≤ 120 MB at rest.
// Every agent package (listAgentPackages: the sixteen subagents and the supervisor), each on
// embedded defaults without its vendor's credentials, as `npm start` runs one that has none.
// BENCH_NODE_OPTIONS_VARIANTS: node options to compare, separated by ";", e.g.
// "default;--max-semi-space-size=2" (default: "shipped", AGENT_NODE_ARGS, what agents run with).
// Every agent × variant process runs at once (the waits are shared), turns go one process at a
// time in a rotating variant order, so a slow spell of the machine lands on all variants alike.
// MongoDB: MONGODB_URI if set, else the test MongoDB (mongo-java-server).
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAgent } from "@switchboard/a2a-client";
import { listAgentPackages } from "@switchboard/contract";
import { benchReport } from "@switchboard-testing/benches";
import { type AgentProcess, nodeVariants, rssMb, startAgentProcess } from "@switchboard-testing/test-agents";
import { say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";

const report = benchReport(new URL("./README.md", import.meta.url), "rss");

const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const STARTED_MS = Number(process.env.BENCH_STARTED_SECONDS ?? 5) * 1000;
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 150) * 1000;
const AIM_MB = 120;
const repoRoot = join(import.meta.dirname, "..", "..", "..");
const variants = nodeVariants(process.env.BENCH_NODE_OPTIONS_VARIANTS?.trim() || "shipped");

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / (values.length || 1);
/** Waits until `ms` after `since` (a performance.now() time). */
const until = (since: number, ms: number) => sleep(Math.max(0, since + ms - performance.now()));

interface Measurement {
  agent: string;
  variant: number;
  process: AgentProcess;
  started: Promise<number>;
  idle: number;
  used: number;
  usedIdle: number;
  turnP50: number;
}

const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
const llm = await startScriptedLlm({ script: () => say("ok") });
const agents = listAgentPackages(repoRoot);
const measured: Measurement[] = [];
try {
  console.log(`Starting ${agents.length * variants.length} agent processes…`);
  for (const [index, agent] of agents.entries()) {
    for (let i = 0; i < variants.length; i++) {
      const variant = (index + i) % variants.length;
      const agentProcess = await startAgentProcess(agent.dir, {
        agentNodeArgs: variants[variant]?.args ?? [],
        env: {
          MONGODB_URI: process.env.MONGODB_URI ?? mongo?.uri ?? "",
          LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_rss_${Date.now()}`,
          ...llm.env,
          LOG_LEVEL: "warn",
        },
      });
      const started = sleep(STARTED_MS).then(() => rssMb([agentProcess.pid]));
      measured.push({
        agent: agent.name,
        variant,
        process: agentProcess,
        started,
        idle: 0,
        used: 0,
        usedIdle: 0,
        turnP50: 0,
      });
    }
  }
  await Promise.all(measured.map((m) => m.started));
  console.log(`All started; ${IDLE_MS / 1000} s of quiet…`);
  await until(performance.now(), IDLE_MS);
  for (const m of measured) m.idle = rssMb([m.process.pid]);

  console.log(`${TURNS} turns on each…`);
  for (const m of measured) {
    const client = await connectAgent(m.process.url);
    const times: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const start = performance.now();
      await client.send({ text: "hello", contextId: randomUUID() });
      times.push(performance.now() - start);
    }
    m.used = rssMb([m.process.pid]);
    m.turnP50 = median(times);
  }
  console.log(`${IDLE_MS / 1000} s of quiet…`);
  await until(performance.now(), IDLE_MS);
  for (const m of measured) m.usedIdle = rssMb([m.process.pid]);
} finally {
  await Promise.all(measured.map((m) => m.process.kill("SIGTERM")));
  await llm.close();
  await mongo?.stop();
}

const rows = await Promise.all(measured.map(async (m) => ({ ...m, startedMb: await m.started })));
const verdict = (mb: number) => (mb <= AIM_MB ? "ok" : "over");
report.print(
  `\nResident memory per agent process (MB): ${STARTED_MS / 1000} s after start, after ${IDLE_MS / 1000} s idle, after ${TURNS} turns (p50 of those turns), and idle again\n`,
);
const width = Math.max(13, ...variants.map((variant) => variant.label.length));
report.print(
  `| agent      | ${"node options".padEnd(width)} | started | idle | after turns | idle after turns | turn p50 ms | idle ≤ ${AIM_MB} MB |`,
);
report.print(
  `| ---------- | ${"-".repeat(width)} | ------- | ---- | ----------- | ---------------- | ----------- | ------------ |`,
);
for (const agent of agents) {
  for (const [variant, { label }] of variants.entries()) {
    const row = rows.find((m) => m.agent === agent.name && m.variant === variant);
    if (!row) continue;
    const worst = Math.max(row.idle, row.usedIdle);
    report.print(
      `| ${agent.name.padEnd(10)} | ${label.padEnd(width)} | ${row.startedMb.toFixed(0).padStart(7)} | ${row.idle.toFixed(0).padStart(4)} | ${row.used.toFixed(0).padStart(11)} | ${row.usedIdle.toFixed(0).padStart(16)} | ${row.turnP50.toFixed(1).padStart(11)} | ${verdict(worst).padEnd(12)} |`,
    );
  }
}

// Per variant over all agents, and against the first variant (the baseline; node's defaults by default).
const summary = variants.map((_, variant) => {
  const own = rows.filter((m) => m.variant === variant);
  const column = (pick: (m: (typeof rows)[number]) => number) => ({
    mean: mean(own.map(pick)),
    max: Math.max(...own.map(pick)),
  });
  return {
    started: column((m) => m.startedMb),
    idle: column((m) => m.idle),
    used: column((m) => m.used),
    usedIdle: column((m) => m.usedIdle),
    turnP50: mean(own.map((m) => m.turnP50)),
    within: own.filter((m) => Math.max(m.idle, m.usedIdle) <= AIM_MB).length,
    count: own.length,
  };
});
const base = summary[0];
const change = (value: number, baseline = 0) =>
  baseline ? `${value >= baseline ? "+" : ""}${(((value - baseline) / baseline) * 100).toFixed(0)}%` : "—";
report.print(
  `\nOver all ${agents.length} agents, mean / max MB, each variant against the first (${variants[0]?.label}):\n`,
);
report.print(
  `| ${"node options".padEnd(width)} | started   | idle      | after turns | idle after turns | mean turn p50 ms | agents idle ≤ ${AIM_MB} MB |`,
);
report.print(
  `| ${"-".repeat(width)} | --------- | --------- | ----------- | ---------------- | ---------------- | ------------------- |`,
);
const pair = (c: { mean: number; max: number }) => `${c.mean.toFixed(0)} / ${c.max.toFixed(0)}`;
for (const [variant, { label }] of variants.entries()) {
  const s = summary[variant];
  if (!s) continue;
  const p50 = `${s.turnP50.toFixed(1)} (${variant === 0 ? "base" : change(s.turnP50, base?.turnP50)})`;
  report.print(
    `| ${label.padEnd(width)} | ${pair(s.started).padStart(9)} | ${pair(s.idle).padStart(9)} | ${pair(s.used).padStart(11)} | ${pair(s.usedIdle).padStart(16)} | ${p50.padStart(16)} | ${`${s.within} of ${s.count}`.padStart(19)} |`,
  );
}
report.print(`\nAim: every agent ≤ ${AIM_MB} MB at rest (idle, and idle after turns).`);
for (const [variant, { label }] of variants.entries()) {
  const s = summary[variant];
  if (!s) continue;
  const met = s.within === s.count;
  report.print(
    `  ${label}: ${met ? "met" : "not met"} (${s.within} of ${s.count} agents; highest idle ${Math.max(s.idle.max, s.usedIdle.max).toFixed(0)} MB)`,
  );
}
report.save();
