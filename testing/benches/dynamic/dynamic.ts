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
//      each (default 20, alternating); target ≤ 1 s;
//   3. a turn's overhead over the model's own time (the scripted LLM holds each "timed" reply
//      BENCH_MODEL_MS, default 200): a configured agent (on the 100- and on the 1-agent host) beside
//      the packaged weather agent, BENCH_TURNS interleaved turns each (default 40).
// Every process the bench starts counts its MongoDB commands and CPU time (../supervisor/process-stats.mjs)
// and reports node's memory figures (memory-stats.mjs), each when signalled: the saves and turns are
// shown with what they cost the process. BENCH_HEAP_SNAPSHOTS=1: the hosts of 1 and of 100 write a V8
// heap snapshot at the idle reading, and the bench shows what each agent added holds, by constructor.
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
import { readAppConfig } from "../../../agents/dynamic-agents/src/definitions/app-config.js";
import { benchReport } from "../src/index.js";
import { heapByClass } from "./heap-by-class.js";

const report = benchReport(new URL("./README.md", import.meta.url), "dynamic");

const COUNTS = [1, 10, 100];
const SETTLE_MS = Number(process.env.BENCH_SETTLE_SECONDS ?? 90) * 1000;
const SAVES = Number(process.env.BENCH_SAVES ?? 20);
const TURNS = Number(process.env.BENCH_TURNS ?? 40);
const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 200);
const TARGET_RSS_MB = 400;
const TARGET_SAVE_MS = 1000;
/** The model every configured agent names, spoken over OpenAI's protocol by the scripted LLM. */
const MODEL = "gpt-4o-mini";
const TIMED = "timed turn";
const HEAP_SNAPSHOTS = process.env.BENCH_HEAP_SNAPSHOTS === "1";
/** What a mounted agent is made of that may hold much: the snapshots are summed under each. */
const HEAP_HOLDERS = [
  "ELDHistogram",
  "Registry",
  "MongoPushConfigStore",
  "MongoCheckpointSaver",
  "ThreadCache",
  "MemoryBook",
];
/** The definitions' collections: the host polls them every second, whatever its agents do. */
const DEFINITIONS = /(dynamic_agents|mcp_servers|llm_models|definition_revisions)$/;

const repoRoot = join(import.meta.dirname, "..", "..", "..");
const hostDir = join(repoRoot, "agents", "dynamic-agents");
const weatherDir = join(repoRoot, "agents", "weather");
const memoryModule = join(import.meta.dirname, "memory-stats.mjs");
const statsModule = join(import.meta.dirname, "..", "supervisor", "process-stats.mjs");
const work = mkdtempSync(join(tmpdir(), "bench-dynamic-"));

/** The nearest-rank quantile: of 20 samples, p95 is the 19th, the median the 10th. */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? 0;
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
  /** Where process-stats.mjs and memory-stats.mjs write when signalled. */
  statsFile: string;
  memoryFile: string;
  readyMs: number;
}

interface Stats {
  memory: NodeJS.MemoryUsage;
  /** MongoDB commands sent so far, by command and collection. */
  commands: Record<string, number>;
  cpuMs: number;
}

/**
 * What the process says of itself now: both modules write when signalled. With `heap`, it writes a
 * heap snapshot first (to `<memoryFile>.heapsnapshot`), which takes a while on a big heap.
 */
async function stats(one: Running, heap = false): Promise<Stats> {
  type Written = { seq: number } & Partial<Stats>;
  const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Written;
  const [memoryBefore, statsBefore] = [read(one.memoryFile), read(one.statsFile)];
  if (heap) writeFileSync(`${one.memoryFile}.want-heap`, "");
  process.kill(one.process.pid, "SIGUSR2");
  const deadline = performance.now() + (heap ? 300_000 : 10_000);
  while (performance.now() < deadline) {
    const [memory, counts] = [read(one.memoryFile), read(one.statsFile)];
    if (memory.seq > memoryBefore.seq && counts.seq > statsBefore.seq)
      return {
        memory: memory.memory as NodeJS.MemoryUsage,
        commands: counts.commands ?? {},
        cpuMs: counts.cpuMs ?? 0,
      };
    await sleep(5);
  }
  throw new Error(`no stats from ${one.label} (pid ${one.process.pid})`);
}

/** What the process spent between two readings: CPU ms and MongoDB commands, by command. */
function spent(before: Stats, after: Stats): { cpuMs: number; commands: Record<string, number> } {
  const commands: Record<string, number> = {};
  for (const [command, count] of Object.entries(after.commands)) {
    const delta = count - (before.commands[command] ?? 0);
    if (delta > 0) commands[command] = delta;
  }
  return { cpuMs: after.cpuMs - before.cpuMs, commands };
}

/** Sums `spent` readings and divides by `count`. */
function perOne(readings: Array<ReturnType<typeof spent>>, count: number) {
  const commands: Record<string, number> = {};
  for (const reading of readings)
    for (const [command, n] of Object.entries(reading.commands))
      commands[command] = (commands[command] ?? 0) + n / count;
  return { cpuMs: readings.reduce((sum, reading) => sum + reading.cpuMs, 0) / count, commands };
}

/** "12.0 (find checkpoints_x 4.0, …)": the commands in all and the most sent, by command and collection. */
function commandSummary(commands: Record<string, number>, top = 4): string {
  const all = Object.values(commands).reduce((sum, n) => sum + n, 0);
  const most = Object.entries(commands)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([command, n]) => `${command} ${n.toFixed(1)}`);
  return `${all.toFixed(1)} (${most.join(", ")})`;
}

const withoutDefinitions = (commands: Record<string, number>) =>
  Object.fromEntries(Object.entries(commands).filter(([command]) => !DEFINITIONS.test(command)));

/**
 * The agent at `base` answers over A2A, asked as soon as its card is served (polled every 5 ms).
 * Resolves with when the card was served (performance.now()).
 */
async function firstAnswer(base: string): Promise<number> {
  const deadline = performance.now() + 30_000;
  while ((await fetch(`${base}/.well-known/agent-card.json`)).status !== 200) {
    if (performance.now() > deadline) throw new Error(`${base} was not served within 30 s`);
    await sleep(5);
  }
  const served = performance.now();
  const agent = await connectAgent(base, { cardRetries: 0 });
  const answer = await agent.send({ text: "hello", contextId: randomUUID() });
  if (answer.state !== "completed" || !answer.text.includes("ok"))
    throw new Error(`${base} answered ${answer.state}: ${answer.text.slice(0, 300)}`);
  return served;
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  const pending = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = pending.shift(); item !== undefined; item = pending.shift()) await run(item);
    }),
  );
}

/**
 * What each agent added holds on the JS heap: the heap snapshots of the hosts of 1 and of `big.agents`
 * (taken at the idle reading), by constructor, the difference divided by the agents added.
 */
async function heapPerAgent(small: Running, big: Running): Promise<void> {
  console.log("Reading the heap snapshots…");
  const one = await heapByClass(`${small.memoryFile}.heapsnapshot`, HEAP_HOLDERS);
  const many = await heapByClass(`${big.memoryFile}.heapsnapshot`, HEAP_HOLDERS);
  const added = big.agents - small.agents;
  const perAgent = (of: (sums: typeof one) => Map<string, { bytes: number; count: number }>) =>
    [...of(many)]
      .map(([name, share]) => {
        const base = of(one).get(name) ?? { bytes: 0, count: 0 };
        return { name, bytes: (share.bytes - base.bytes) / added, count: (share.count - base.count) / added };
      })
      .sort((a, b) => b.bytes - a.bytes);
  const byClass = perAgent((sums) => sums.byClass);
  const total = byClass.reduce((sum, row) => sum + row.bytes, 0);
  const row = (name: string, bytes: number, count: number) =>
    report.print(`| ${name.replaceAll("|", "\\|")} | ${(bytes / 1024).toFixed(1)} | ${count.toFixed(0)} |`);
  report.print(
    `\nWhat each agent added holds on the JS heap: V8 heap snapshots of the hosts of ${small.agents} and ${big.agents} at the idle reading, self sizes, the difference ÷ ${added}; ${(total / 1024).toFixed(0)} KB in all. By constructor (storage under the object holding it), the most:\n`,
  );
  report.print("| constructor or kind | KB per agent | nodes per agent |");
  report.print("| --- | --- | --- |");
  for (const { name, bytes, count } of byClass.slice(0, 12)) row(name, bytes, count);
  report.print(
    `\nUnder the nearest of these holders up each node's first referrers (≤ 8 hops; a heuristic, no dominator tree): ELDHistogram is node's event-loop delay monitor, which prom-client's default metrics start once per registry:\n`,
  );
  report.print("| holder | KB per agent | nodes per agent |");
  report.print("| --- | --- | --- |");
  for (const { name, bytes, count } of perAgent((sums) => sums.byHolder)) row(name, bytes, count);
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
    const statsFile = join(work, `${running.length}.stats.json`);
    const memoryFile = join(work, `${running.length}.memory.json`);
    const started = performance.now();
    const agentProcess = await startAgentProcess(dir, {
      env: {
        MONGODB_URI: uri,
        LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: database,
        ...llm.env,
        LOG_LEVEL: "warn",
        BENCH_STATS_FILE: statsFile,
        BENCH_MEMORY_FILE: memoryFile,
        ...env,
      },
      nodeArgs: ["--import", statsModule, "--import", memoryModule],
      timeoutMs: 600_000,
    });
    const one = {
      label,
      agents,
      process: agentProcess,
      statsFile,
      memoryFile,
      readyMs: performance.now() - started,
    };
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
      await inBatches(ids(count), 10, async (id) => {
        await firstAnswer(`${host.process.url}/agents/${id}`);
      });
      hosts.set(count, host);
      configFiles.set(count, configFile);
    }
    const weather = await start("weather (packaged agent)", 1, weatherDir, {
      WEATHER_API_URL: meteo.forecast.url,
      WEATHER_GEOCODING_API_URL: meteo.geocoding.url,
    });
    await firstAnswer(weather.process.url);
    console.log(`Every agent answered once; ${SETTLE_MS / 1000} s of quiet…`);
    const quietFrom = await Promise.all(running.map((one) => stats(one)));
    const quietStart = performance.now();
    await sleep(SETTLE_MS);
    const quietTo = await Promise.all(running.map((one) => stats(one)));
    const quietMs = performance.now() - quietStart;
    /** CPU time a process spent while quiet, % of one core. */
    const idleCpu = (one: Running) => {
      const at = running.indexOf(one);
      return (100 * ((quietTo[at]?.cpuMs ?? 0) - (quietFrom[at]?.cpuMs ?? 0))) / quietMs;
    };
    // One at a time: a heap snapshot stops its process for seconds, and the others should be idle meanwhile.
    const memory: Array<{ one: Running; rss: number; node: NodeJS.MemoryUsage }> = [];
    for (const one of running) {
      const rss = rssMb([one.process.pid]);
      const heap = HEAP_SNAPSHOTS && one.agents !== 10 && one !== weather;
      memory.push({ one, rss, node: (await stats(one, heap)).memory });
    }

    // 2. Saved → first answer on the 100-agent host: through the API, and by an edit of the file.
    const big = hosts.get(100) as Running;
    const bigConfig = configFiles.get(100) as string;
    const fileIds = ids(100);
    type Save = { answered?: number; served: number; first: number; cost: ReturnType<typeof spent> };
    const saves: Record<"api" | "file", Save[]> = { api: [], file: [] };
    console.log(`${SAVES} agents made through the API and ${SAVES} by editing the file…`);
    for (let i = 0; i < SAVES * 2; i++) {
      const how = i % 2 === 0 ? "api" : "file";
      const id = `${how}-${Math.floor(i / 2)}`;
      const before = await stats(big);
      const t0 = performance.now();
      let answered: number | undefined;
      if (how === "api") {
        const created = await fetch(`${big.process.url}/api/v1/agents`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(agentEntry(id)),
        });
        if (!created.ok)
          throw new Error(`POST /api/v1/agents answered ${created.status}: ${await created.text()}`);
        answered = performance.now() - t0;
      } else {
        fileIds.push(id);
        writeConfig(bigConfig, appConfig(fileIds));
      }
      const served = (await firstAnswer(`${big.process.url}/agents/${id}`)) - t0;
      const first = performance.now() - t0;
      saves[how].push({
        ...(answered === undefined ? {} : { answered }),
        served,
        first,
        cost: spent(before, await stats(big)),
      });
    }

    // 3. A turn's overhead over the model's time, paths interleaved in rotating order.
    const small = hosts.get(1) as Running;
    const paths = {
      "configured (host of 100)": {
        agent: await connectAgent(`${big.process.url}/agents/agent-001`),
        runs: big,
      },
      "configured (host of 1)": {
        agent: await connectAgent(`${small.process.url}/agents/agent-001`),
        runs: small,
      },
      "weather (packaged)": { agent: await connectAgent(weather.process.url), runs: weather },
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
    const turnCost = new Map<keyof typeof paths, Stats>();
    console.log(`${TURNS} turns on each path, the model taking ${MODEL_MS} ms a call…`);
    for (let round = -3; round < TURNS; round++) {
      // Each path's process serves only that path here: its counts over the rounds are its turns'.
      if (round === 0) for (const name of names) turnCost.set(name, await stats(paths[name].runs));
      for (let i = 0; i < names.length; i++) {
        const name = names[(round + 3 + i) % names.length] as keyof typeof paths;
        const calls = timedCalls;
        const t0 = performance.now();
        const answer = await paths[name].agent.send({ text: `${TIMED}: hello`, contextId: randomUUID() });
        const took = performance.now() - t0;
        if (answer.state !== "completed" || !answer.text.includes("timed"))
          throw new Error(`${name} answered ${answer.state}: ${answer.text.slice(0, 300)}`);
        if (round < 0) continue; // warm-up
        wall[name].push(took);
        overhead[name].push(took - (timedCalls - calls) * MODEL_MS);
      }
    }
    const perTurn = new Map<keyof typeof paths, ReturnType<typeof perOne>>();
    for (const name of names)
      perTurn.set(name, perOne([spent(turnCost.get(name) as Stats, await stats(paths[name].runs))], TURNS));

    // The tables.
    const rssOf = (count: number) => memory.find((m) => m.one === hosts.get(count))?.rss ?? 0;
    const weatherRss = memory.find((m) => m.one === weather)?.rss ?? 0;
    report.print(
      `\nIdle resident memory, from /proc, after a first turn to every agent and ${SETTLE_MS / 1000} s of quiet (one host process per row, each its own database; heap and external as node reports them)\n`,
    );
    report.print(
      "| process | agents | ready in, s | RSS, MB | JS heap used, MB | external + array buffers, MB | RSS per agent over the 1-agent host, MB | target | CPU while quiet, % of a core |",
    );
    report.print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const { one, rss, node } of memory) {
      const perAgent =
        one === weather || one.agents === 1 ? "—" : ((rss - rssOf(1)) / (one.agents - 1)).toFixed(2);
      const target =
        one.agents === 100 && one !== weather
          ? `≤ ${TARGET_RSS_MB} MB: ${rss <= TARGET_RSS_MB ? "met" : `missed by ${(rss - TARGET_RSS_MB).toFixed(0)} MB`}`
          : "";
      report.print(
        `| ${one.label} | ${one.agents} | ${(one.readyMs / 1000).toFixed(1)} | ${rss.toFixed(0)} | ${mb(node.heapUsed).toFixed(0)} | ${mb(node.external + node.arrayBuffers).toFixed(0)} | ${perAgent} | ${target} | ${idleCpu(one).toFixed(1)} |`,
      );
    }
    report.print(
      `\nCAIPE 0.5 ran one container per agent: 100 agents as packaged processes would hold about ${((weatherRss * 100) / 1024).toFixed(1)} GB (100 × the weather agent's ${weatherRss.toFixed(0)} MB), against ${rssOf(100).toFixed(0)} MB for one host serving 100.`,
    );
    if (HEAP_SNAPSHOTS) await heapPerAgent(hosts.get(1) as Running, big);

    report.print(
      `\nFrom a definition saved to its first answer over A2A, on the host of 100 (${SAVES} samples each, alternating; the first turn's model call answers at once). Card: until its card is served; CPU and MongoDB commands: what the host spent per save, from the save to the answer (the definitions' 1 s poll included)\n`,
    );
    report.print(
      "| saved by | answered, median ms | card, median ms | first answer, median ms | p95 ms | max ms | target | met | host CPU ms | MongoDB commands (most sent) |",
    );
    report.print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const [how, label] of [
      ["api", "`POST /api/v1/agents`"],
      ["file", "an edit of the app-config file"],
    ] as const) {
      const list = saves[how];
      const first = list.map((save) => save.first);
      const answered = list.flatMap((save) => (save.answered === undefined ? [] : [save.answered]));
      const met =
        quantile(first, 0.95) <= TARGET_SAVE_MS
          ? "yes"
          : quantile(first, 0.5) <= TARGET_SAVE_MS
            ? "at the median"
            : "no";
      const cost = perOne(
        list.map((save) => save.cost),
        list.length,
      );
      report.print(
        `| ${label} | ${answered.length ? quantile(answered, 0.5).toFixed(0) : "—"} | ${quantile(
          list.map((save) => save.served),
          0.5,
        ).toFixed(
          0,
        )} | ${quantile(first, 0.5).toFixed(0)} | ${quantile(first, 0.95).toFixed(0)} | ${Math.max(...first).toFixed(0)} | ≤ ${TARGET_SAVE_MS} ms | ${met} | ${cost.cpuMs.toFixed(0)} | ${commandSummary(cost.commands)} |`,
      );
    }
    // The part of a file edit no API save has: the whole file read and checked again (in this process).
    const text = appConfig(fileIds);
    const reads: number[] = [];
    for (let i = -5; i < 30; i++) {
      const t0 = performance.now();
      if (!readAppConfig(text, {}, work).ok) throw new Error("the bench's own app-config does not read");
      if (i >= 0) reads.push(performance.now() - t0);
    }
    report.print(
      `\nA file edit's own steps: the host's watcher waits 150 ms for the file to settle (agents/dynamic-agents/src/definitions/watch.ts), then reads and checks the whole file: ${quantile(reads, 0.5).toFixed(1)} ms median for its ${fileIds.length} agents (readAppConfig timed in the bench's process), before the store and the agent are updated as for an API save.`,
    );
    report.print(
      `\nEach sample in order, first answer ms: API ${saves.api.map((save) => save.first.toFixed(0)).join(", ")}; file ${saves.file.map((save) => save.first.toFixed(0)).join(", ")}`,
    );

    report.print(
      `\nA turn's overhead over the model's own time (${TURNS} interleaved turns per path, one model call of ${MODEL_MS} ms each; overhead = turn wall time − model time), and what the serving process spent per turn (MongoDB commands without the definitions' poll)\n`,
    );
    report.print(
      "| agent | turn p50 ms | overhead p50 ms | overhead p95 ms | overhead p50 ÷ packaged | process CPU ms per turn | MongoDB commands per turn (most sent) |",
    );
    report.print("| --- | --- | --- | --- | --- | --- | --- |");
    const packaged = quantile(overhead["weather (packaged)"], 0.5);
    for (const name of names) {
      const p50 = quantile(overhead[name], 0.5);
      const cost = perTurn.get(name);
      report.print(
        `| ${name} | ${quantile(wall[name], 0.5).toFixed(1)} | ${p50.toFixed(1)} | ${quantile(overhead[name], 0.95).toFixed(1)} | ${(p50 / packaged).toFixed(2)} | ${cost?.cpuMs.toFixed(1)} | ${commandSummary(withoutDefinitions(cost?.commands ?? {}), 3)} |`,
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
