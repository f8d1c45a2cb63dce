// pnpm bench:soak — does an agent's memory level off under sustained load, inside the container's
// limit? One agent process (BENCH_AGENT, default jira), started as deployed (MongoDB checkpoints, an
// OpenAI-compatible model: the scripted LLM) with the node options the image ships (AGENT_NODE_ARGS),
// its heap sized as the image sizes it under the chart's memory limit (the limit read from
// charts/switchboard/values.yaml); BENCH_REQUESTS requests (default 50,000) from BENCH_CONCURRENCY
// clients at once (default 8), each a mutated message (random words, lengths and scripts; most a new
// conversation, every fourth the next turn of the client's last one). Every BENCH_SAMPLE_EVERY
// requests (default 2,500) a row: requests done, RSS, V8 heap used and GC time since the last row,
// from the agent's own /metrics. The verdict: the process never exited, every sample stayed under the
// limit, and RSS levelled off (the last quarter's peak at most 10% or 32 MB over the second quarter's).
// BENCH_HEAP_SNAPSHOTS=DIR: the agent writes a heap snapshot there on SIGUSR2 at the second-quarter
// mark and at the end, to compare in Chrome DevTools when it does not level off.
// MongoDB: MONGODB_URI if set, else the test MongoDB (mongo-java-server).
import { randomInt, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { connectAgent } from "@switchboard/a2a-client";
import { AGENT_NODE_ARGS } from "@switchboard/contract";
import { rssMb, startAgentProcess } from "@switchboard-testing/test-agents";
import { say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 50_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SAMPLE_EVERY = Number(process.env.BENCH_SAMPLE_EVERY ?? 2_500);
const AGENT = process.env.BENCH_AGENT ?? "jira";
const SNAPSHOTS = process.env.BENCH_HEAP_SNAPSHOTS;
const repoRoot = join(import.meta.dirname, "..", "..", "..");
const MB = 2 ** 20;

/** The agents' memory limit as the chart declares it (agents.resources.limits.memory), in MB. */
function chartLimitMb(): number {
  const values = readFileSync(join(repoRoot, "charts", "switchboard", "values.yaml"), "utf8");
  const memory = /\n {4}limits:\n(?: {6}\S.*\n)*? {6}memory: (\d+)(Mi|Gi)\n/.exec(values);
  if (!memory) throw new Error("charts/switchboard/values.yaml: no resources.limits.memory found");
  return Number(memory[1]) * (memory[2] === "Gi" ? 1024 : 1);
}

/**
 * The image's node options with the heap sized as node sizes it in the container: a percentage of
 * the memory limit becomes that many MB of it (this machine has no such limit to read).
 */
function imageNodeArgs(limitMb: number): string[] {
  return AGENT_NODE_ARGS.map((arg) => {
    const percent = /^--max-old-space-size-percentage=(\d+)%?$/.exec(arg)?.[1];
    return percent ? `--max-old-space-size=${Math.floor((limitMb * Number(percent)) / 100)}` : arg;
  });
}

const WORDS = [
  "deploy",
  "ticket",
  "PLAT-42",
  "rollback",
  "héllo",
  "Grüße",
  "日本語",
  "🚀",
  "null",
  "{}",
  "<b>",
];
/** A message unlike the last: 1 to 120 words, some of them random strings. */
function mutated(): string {
  const words = Array.from({ length: randomInt(1, 120) }, () =>
    randomInt(4) === 0 ? randomUUID().slice(0, randomInt(1, 36)) : WORDS[randomInt(WORDS.length)],
  );
  return words.join(" ");
}

/** The agent's own gauges from its /metrics (prom-client's default metrics). */
async function agentMetrics(
  url: string,
): Promise<{ heapUsedMb: number; gcSeconds: number; majorGcs: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (pattern: RegExp) =>
    [...text.matchAll(pattern)].reduce((sum, match) => sum + Number(match[1] ?? 0), 0);
  return {
    heapUsedMb: value(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\S+)$/gm) / MB,
    gcSeconds: value(/^nodejs_gc_duration_seconds_sum(?:\{[^}]*\})? (\S+)$/gm),
    majorGcs: value(/^nodejs_gc_duration_seconds_count\{[^}]*kind="major"[^}]*\} (\S+)$/gm),
  };
}

interface Sample {
  done: number;
  seconds: number;
  rssMb: number;
  heapUsedMb: number;
  gcMs: number;
  majorGcs: number;
  failed: number;
}

const limitMb = chartLimitMb();
const nodeArgs = imageNodeArgs(limitMb);
if (SNAPSHOTS) mkdirSync(SNAPSHOTS, { recursive: true });
const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
const llm = await startScriptedLlm({ script: () => say("ok") });
const agent = await startAgentProcess(join(repoRoot, "agents", AGENT), {
  agentNodeArgs: nodeArgs,
  ...(SNAPSHOTS ? { nodeArgs: ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${SNAPSHOTS}`] } : {}),
  env: {
    MONGODB_URI: process.env.MONGODB_URI ?? mongo?.uri ?? "",
    LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench_soak_${Date.now()}`,
    ...llm.env,
    LOG_LEVEL: "warn",
  },
});
let exitedEarly: number | null | undefined;
let stopping = false;
void agent.exited.then((code) => {
  if (!stopping) exitedEarly = code;
});

const samples: Sample[] = [];
const started = performance.now();
let done = 0;
let failed = 0;
let lastGc = { gcSeconds: 0, majorGcs: 0 };
const sample = async () => {
  const metrics = await agentMetrics(agent.url);
  samples.push({
    done,
    seconds: (performance.now() - started) / 1000,
    rssMb: rssMb([agent.pid]),
    heapUsedMb: metrics.heapUsedMb,
    gcMs: (metrics.gcSeconds - lastGc.gcSeconds) * 1000,
    majorGcs: metrics.majorGcs - lastGc.majorGcs,
    failed,
  });
  lastGc = metrics;
  const row = samples.at(-1) as Sample;
  console.log(
    `| ${String(row.done).padStart(8)} | ${row.seconds.toFixed(0).padStart(6)} | ${row.rssMb.toFixed(0).padStart(6)} | ${row.heapUsedMb.toFixed(0).padStart(12)} | ${row.gcMs.toFixed(0).padStart(15)} | ${String(row.majorGcs).padStart(9)} | ${String(row.failed).padStart(6)} |`,
  );
};

console.log(
  `Soak: ${REQUESTS} requests to the ${AGENT} agent, ${CONCURRENCY} at a time, node ${process.version} ${nodeArgs.join(" ")} (the image's heap under the chart's ${limitMb} Mi limit)\n`,
);
console.log("| requests | s      | RSS MB | heap used MB | GC ms (interval) | major GCs | failed |");
console.log("| -------- | ------ | ------ | ------------ | ---------------- | --------- | ------ |");
try {
  await sample();
  let issued = 0;
  let nextSample = SAMPLE_EVERY;
  let snapshotTaken = false;
  const client = async () => {
    const a2a = await connectAgent(agent.url);
    let contextId = randomUUID();
    while (issued < REQUESTS && exitedEarly === undefined) {
      issued++;
      if (randomInt(4) !== 0) contextId = randomUUID();
      try {
        await a2a.send({ text: mutated(), contextId });
      } catch {
        failed++;
      }
      done++;
      if (done >= nextSample) {
        nextSample += SAMPLE_EVERY;
        await sample();
        if (SNAPSHOTS && !snapshotTaken && done >= REQUESTS / 2) {
          snapshotTaken = true;
          process.kill(agent.pid, "SIGUSR2");
        }
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
  if (SNAPSHOTS) process.kill(agent.pid, "SIGUSR2");
} finally {
  stopping = true;
  await agent.kill("SIGTERM");
  await llm.close();
  await mongo?.stop();
}

const quarter = (index: number) =>
  samples.slice(Math.floor((samples.length * index) / 4), Math.floor((samples.length * (index + 1)) / 4));
const peak = (rows: Sample[]) => Math.max(...rows.map((row) => row.rssMb));
const secondQuarter = peak(quarter(1));
const lastQuarter = peak(quarter(3));
const levelled = lastQuarter <= Math.max(secondQuarter * 1.1, secondQuarter + 32);
const highest = peak(samples);
const problems = [
  ...(exitedEarly !== undefined ? [`the agent exited (code ${exitedEarly}) after ${done} requests`] : []),
  ...(highest >= limitMb ? [`RSS reached ${highest.toFixed(0)} MB, at or over the ${limitMb} Mi limit`] : []),
  ...(levelled
    ? []
    : [
        `RSS did not level off: the last quarter peaked at ${lastQuarter.toFixed(0)} MB against ${secondQuarter.toFixed(0)} MB in the second`,
      ]),
  ...(failed > 0 ? [`${failed} requests failed`] : []),
];
const seconds = (performance.now() - started) / 1000;
console.log(
  `\n${done} requests in ${seconds.toFixed(0)} s (${(done / seconds).toFixed(0)}/s); RSS peak ${highest.toFixed(0)} MB (limit ${limitMb} Mi), second-quarter peak ${secondQuarter.toFixed(0)} MB, last-quarter peak ${lastQuarter.toFixed(0)} MB.`,
);
if (problems.length > 0) {
  console.log(`FAILED: ${problems.join("; ")}.`);
  process.exitCode = 1;
} else {
  console.log("Held: RSS levelled off under the limit and the agent was never killed.");
}
