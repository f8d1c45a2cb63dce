// pnpm bench:dynamic — the dynamic-agents host (agents/dynamic-agents) as a user runs it: `node` on its
// built entry with AGENT_NODE_ARGS, its agents from an APP_CONFIG_FILE in CAIPE's app-config.yaml
// shape, MongoDB (MONGODB_URI if set, else the test MongoDB), the scripted LLM as every agent's model.
// In one run:
//   1. idle RSS of one host process serving 1, 10 and 100 configured agents (a host each, its own
//      database), read from /proc after a first turn to every agent and BENCH_SETTLE_SECONDS of quiet
//      (default 90: V8's memory reducer gives memory back about a minute into a quiet spell), beside a
//      packaged agent's process (weather, with its fake Open-Meteo) for scale; target ≤ 400 MB at 100;
//   2. time from a definition saved to its first answer over A2A, on the 100-agent host: an agent made
//      with POST /api/v1/agents, and one added by an edit of the app-config file, BENCH_SAVES samples
//      each (default 10, alternating); target ≤ 1 s;
//   3. a turn's overhead over the model's own time (the scripted LLM holds each "timed" reply
//      BENCH_MODEL_MS, default 200): a configured agent (on the 100- and on the 1-agent host) beside
//      the packaged weather agent, BENCH_TURNS interleaved turns each (default 40).
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAgent } from "@switchboard/a2a-client";
import { startFakeOpenMeteo } from "@switchboard-testing/fake-vendors";
import { type AgentProcess, rssMb, startAgentProcess } from "@switchboard-testing/test-agents";
import { lastUserText, type Script, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { stringify } from "yaml";
import { benchReport } from "../src/index.js";

const report = benchReport(new URL("./README.md", import.meta.url), "dynamic");

const COUNTS = [1, 10, 100];
const SETTLE_MS = Number(process.env.BENCH_SETTLE_SECONDS ?? 90) * 1000;
const SAVES = Number(process.env.BENCH_SAVES ?? 10);
const TURNS = Number(process.env.BENCH_TURNS ?? 40);
const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 200);
const TARGET_RSS_MB = 400;
const TARGET_SAVE_MS = 1000;
/** The model every configured agent names, spoken over OpenAI's protocol by the scripted LLM. */
const MODEL = "gpt-4o-mini";
const TIMED = "timed turn";

const repoRoot = join(import.meta.dirname, "..", "..", "..");
const hostDir = join(repoRoot, "agents", "dynamic-agents");
const weatherDir = join(repoRoot, "agents", "weather");
const statsModule = join(import.meta.dirname, "memory-stats.mjs");
const work = mkdtempSync(join(tmpdir(), "bench-dynamic-"));

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const mb = (bytes: number) => bytes / 2 ** 20;

/** One configured agent in CAIPE's app-config.yaml (and API) shape: a prompt and a model, no tools. */
function agentEntry(id: string) {
  return {
    id,
    name: `Bench ${id}`,
    description: "A configured agent the bench counts",
    system_prompt: "You answer briefly.",
    model_id: MODEL,
    model_provider: "openai",
    visibility: "global",
    allowed_tools: {},
    subagents: [],
  };
}

function appConfig(ids: string[]): string {
  return stringify({
    models: [{ model_id: MODEL, name: "GPT-4o Mini", provider: "openai", description: "The scripted LLM" }],
    mcp_servers: [],
    agents: ids.map((id) => ({ ...agentEntry(id), enabled: true })),
  });
}

/** Writes the file at once (a rename), as an editor or a ConfigMap swap does: the watcher reads it whole. */
function writeConfig(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** Every timed model call holds MODEL_MS; everything else (first turns, saves) answers at once. */
let timedCalls = 0;
const script: Script = async (request) => {
  if (!lastUserText(request)?.includes(TIMED)) return say("ok");
  timedCalls++;
  await sleep(MODEL_MS);
  return say("ok, timed");
};

interface Running {
  label: string;
  agents: number;
  process: AgentProcess;
  statsFile: string;
  readyMs: number;
}

interface MemoryStats {
  seq: number;
  memory: NodeJS.MemoryUsage;
}

/** What node says the process holds now (memory-stats.mjs writes it when signalled). */
async function memoryStats(file: string, pid: number): Promise<MemoryStats> {
  const read = () => JSON.parse(readFileSync(file, "utf8")) as MemoryStats;
  const before = read();
  process.kill(pid, "SIGUSR2");
  for (let waited = 0; waited < 5_000; waited += 5) {
    const now = read();
    if (now.seq > before.seq) return now;
    await sleep(5);
  }
  throw new Error(`no memory stats from process ${pid}`);
}

/** The agent at `base` answers over A2A, asked as soon as its card is served (polled every 5 ms). */
async function firstAnswer(base: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while ((await fetch(`${base}/.well-known/agent-card.json`)).status !== 200) {
    if (performance.now() > deadline) throw new Error(`${base} was not served within 30 s`);
    await sleep(5);
  }
  const agent = await connectAgent(base, { cardRetries: 0 });
  const answer = await agent.send({ text: "hello", contextId: randomUUID() });
  if (answer.state !== "completed" || !answer.text.includes("ok"))
    throw new Error(`${base} answered ${answer.state}: ${answer.text.slice(0, 300)}`);
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  const pending = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = pending.shift(); item !== undefined; item = pending.shift()) await run(item);
    }),
  );
}

const ids = (count: number) =>
  Array.from({ length: count }, (_, i) => `agent-${String(i + 1).padStart(3, "0")}`);

async function main(): Promise<void> {
  for (const dir of [hostDir, weatherDir])
    if (!existsSync(join(dir, "dist", "index.js")))
      throw new Error(`${dir} is not built: run pnpm build first`);
  const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
  const uri = process.env.MONGODB_URI ?? mongo?.uri ?? "";
  const runId = Date.now();
  const databases: string[] = [];
  const llm = await startScriptedLlm({ script, record: false });
  const meteo = await startFakeOpenMeteo();
  const running: Running[] = [];
  const start = async (
    label: string,
    agents: number,
    dir: string,
    env: Record<string, string>,
  ): Promise<Running> => {
    const database = `bench_dynamic_${runId}_${running.length}`;
    databases.push(database);
    const statsFile = join(work, `${running.length}.json`);
    const started = performance.now();
    const agentProcess = await startAgentProcess(dir, {
      env: {
        MONGODB_URI: uri,
        LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: database,
        ...llm.env,
        LOG_LEVEL: "warn",
        BENCH_STATS_FILE: statsFile,
        ...env,
      },
      nodeArgs: ["--import", statsModule],
      timeoutMs: 600_000,
    });
    const one = { label, agents, process: agentProcess, statsFile, readyMs: performance.now() - started };
    running.push(one);
    return one;
  };
  try {
    // 1. A host per count, each agent asked once, the packaged agent beside them; then quiet.
    const hosts = new Map<number, Running>();
    const configFiles = new Map<number, string>();
    for (const count of COUNTS) {
      const configFile = join(work, `app-config-${count}.yaml`);
      writeConfig(configFile, appConfig(ids(count)));
      console.log(`Starting a host of ${count} configured agents…`);
      const host = await start(`host, ${count} configured`, count, hostDir, { APP_CONFIG_FILE: configFile });
      await inBatches(ids(count), 10, (id) => firstAnswer(`${host.process.url}/agents/${id}`));
      hosts.set(count, host);
      configFiles.set(count, configFile);
    }
    const weather = await start("weather (packaged agent)", 1, weatherDir, {
      WEATHER_API_URL: meteo.forecast.url,
      WEATHER_GEOCODING_API_URL: meteo.geocoding.url,
    });
    await firstAnswer(weather.process.url);
    console.log(`Every agent answered once; ${SETTLE_MS / 1000} s of quiet…`);
    await sleep(SETTLE_MS);
    const memory = await Promise.all(
      running.map(async (one) => ({
        one,
        rss: rssMb([one.process.pid]),
        node: (await memoryStats(one.statsFile, one.process.pid)).memory,
      })),
    );

    // 2. Saved → first answer on the 100-agent host: through the API, and by an edit of the file.
    const big = hosts.get(100) as Running;
    const bigConfig = configFiles.get(100) as string;
    const fileIds = ids(100);
    const saves = { api: [] as number[], apiAnswered: [] as number[], file: [] as number[] };
    console.log(`${SAVES} agents made through the API and ${SAVES} by editing the file…`);
    for (let i = 0; i < SAVES * 2; i++) {
      const sample = Math.floor(i / 2);
      if (i % 2 === 0) {
        const id = `api-${sample}`;
        const t0 = performance.now();
        const created = await fetch(`${big.process.url}/api/v1/agents`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(agentEntry(id)),
        });
        if (!created.ok)
          throw new Error(`POST /api/v1/agents answered ${created.status}: ${await created.text()}`);
        saves.apiAnswered.push(performance.now() - t0);
        await firstAnswer(`${big.process.url}/agents/${id}`);
        saves.api.push(performance.now() - t0);
      } else {
        const id = `file-${sample}`;
        fileIds.push(id);
        const t0 = performance.now();
        writeConfig(bigConfig, appConfig(fileIds));
        await firstAnswer(`${big.process.url}/agents/${id}`);
        saves.file.push(performance.now() - t0);
      }
    }

    // 3. A turn's overhead over the model's time, paths interleaved in rotating order.
    const small = hosts.get(1) as Running;
    const paths = {
      "configured (host of 100)": await connectAgent(`${big.process.url}/agents/agent-001`),
      "configured (host of 1)": await connectAgent(`${small.process.url}/agents/agent-001`),
      "weather (packaged)": await connectAgent(weather.process.url),
    };
    const names = Object.keys(paths) as (keyof typeof paths)[];
    const overhead = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
      keyof typeof paths,
      number[]
    >;
    const wall = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
      keyof typeof paths,
      number[]
    >;
    console.log(`${TURNS} turns on each path, the model taking ${MODEL_MS} ms a call…`);
    for (let round = -3; round < TURNS; round++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + 3 + i) % names.length] as keyof typeof paths;
        const calls = timedCalls;
        const t0 = performance.now();
        const answer = await paths[name].send({ text: `${TIMED}: hello`, contextId: randomUUID() });
        const took = performance.now() - t0;
        if (answer.state !== "completed" || !answer.text.includes("timed"))
          throw new Error(`${name} answered ${answer.state}: ${answer.text.slice(0, 300)}`);
        if (round < 0) continue; // warm-up
        wall[name].push(took);
        overhead[name].push(took - (timedCalls - calls) * MODEL_MS);
      }
    }

    // The table.
    const rssOf = (count: number) => memory.find((m) => m.one === hosts.get(count))?.rss ?? 0;
    const weatherRss = memory.find((m) => m.one === weather)?.rss ?? 0;
    report.print(
      `\nIdle resident memory, from /proc, after a first turn to every agent and ${SETTLE_MS / 1000} s of quiet (one host process per row, each its own database)\n`,
    );
    report.print(
      "| process | agents | ready in, s | RSS, MB | JS heap used, MB | external + array buffers, MB | per agent over the 1-agent host, MB | target |",
    );
    report.print("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const { one, rss, node } of memory) {
      const perAgent =
        one.process === weather.process || one.agents === 1
          ? "—"
          : ((rss - rssOf(1)) / (one.agents - 1)).toFixed(2);
      const target =
        one.agents === 100 && one !== weather
          ? `≤ ${TARGET_RSS_MB} MB: ${rss <= TARGET_RSS_MB ? "met" : `missed by ${(rss - TARGET_RSS_MB).toFixed(0)} MB`}`
          : "";
      report.print(
        `| ${one.label} | ${one.agents} | ${(one.readyMs / 1000).toFixed(1)} | ${rss.toFixed(0)} | ${mb(node.heapUsed).toFixed(0)} | ${mb(node.external + node.arrayBuffers).toFixed(0)} | ${perAgent} | ${target} |`,
      );
    }
    report.print(
      `\nCAIPE 0.5 ran one container per agent: 100 agents as packaged processes would hold about ${((weatherRss * 100) / 1024).toFixed(1)} GB (100 × the weather agent's ${weatherRss.toFixed(0)} MB), against ${rssOf(100).toFixed(0)} MB for one host serving 100.\n`,
    );

    report.print(
      `\nFrom a definition saved to its first answer over A2A, on the host of 100 (${SAVES} samples each; the first turn's model call answers at once)\n`,
    );
    report.print("| saved by | median ms | p95 ms | max ms | target | met |");
    report.print("| --- | --- | --- | --- | --- | --- |");
    const saveRow = (label: string, samples: number[]) =>
      report.print(
        `| ${label} | ${quantile(samples, 0.5).toFixed(0)} | ${quantile(samples, 0.95).toFixed(0)} | ${Math.max(...samples).toFixed(0)} | ≤ ${TARGET_SAVE_MS} ms | ${quantile(samples, 0.95) <= TARGET_SAVE_MS ? "yes" : quantile(samples, 0.5) <= TARGET_SAVE_MS ? "at the median" : "no"} |`,
      );
    saveRow("`POST /api/v1/agents`, until it is answered", saves.apiAnswered);
    saveRow("`POST /api/v1/agents`, until the first answer", saves.api);
    saveRow("an edit of the app-config file, until the first answer", saves.file);

    report.print(
      `\nA turn's overhead over the model's own time (${TURNS} interleaved turns per path, one model call of ${MODEL_MS} ms each; overhead = turn wall time − model time)\n`,
    );
    report.print("| agent | turn p50 ms | overhead p50 ms | overhead p95 ms | overhead p50 ÷ packaged |");
    report.print("| --- | --- | --- | --- | --- |");
    const packaged = quantile(overhead["weather (packaged)"], 0.5);
    for (const name of names) {
      const p50 = quantile(overhead[name], 0.5);
      report.print(
        `| ${name} | ${quantile(wall[name], 0.5).toFixed(1)} | ${p50.toFixed(1)} | ${quantile(overhead[name], 0.95).toFixed(1)} | ${(p50 / packaged).toFixed(2)} |`,
      );
    }
    report.print(
      "\nThe machine is shared and noisy: absolute numbers move from run to run, the ratios within one run are what count.",
    );
  } catch (error) {
    for (const one of running)
      process.stderr.write(`\n--- ${one.label}, last output ---\n${one.process.logs().slice(-4000)}\n`);
    throw error;
  } finally {
    await Promise.all(running.map((one) => one.process.kill("SIGTERM")));
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000 });
    try {
      await client.connect();
      for (const database of databases) await client.db(database).dropDatabase();
    } finally {
      await client.close();
    }
    await Promise.all([llm.close(), meteo.close()]);
    await mongo?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
report.save();
