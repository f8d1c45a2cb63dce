// pnpm bench:checkpointer: our MongoDB saver (getCheckpointer()) beside upstream's MongoDBSaver, with
// the in-memory saver as the bare framework's reference, at realistic stored sizes.
//
// What is stored: conversations of an agent-shaped graph (per turn a question, two tool calls with
// ~1 kB results and an answer: 7 checkpoints), written by each saver itself, then copied under new
// thread ids until the collections hold each size (100k checkpoints: ~2,900 conversations of 5
// turns). Per size, side by side (one sample of each saver per round, in rotating order):
//   getTuple (latest, by id), list (latest N, N before an id, a whole conversation), each by a warm
//     process (it read the conversation before) and by a cold reader (a fresh saver, cache empty,
//     reading a conversation another instance wrote, as replicas do);
//   a turn, and the put / putWrites calls LangGraph makes in it (durability "sync": the calls the
//     agent runtime makes, one at a time), warm (the process ran the previous turn) and cold (a
//     fresh saver runs it).
// Then one long conversation is written turn by turn by each saver and read back cold and warm:
// its latest state, its latest N, and list() of every checkpoint.
// Printed: p50 / p95 ms, calls per second of one caller, database commands per call, ours ÷
// upstream, and ok / over against the target (ours, `list` at 100k stored, p50 < 5 ms).
// MongoDB: MONGODB_URI if set (e.g. DocumentDB, ../shared/tools/documentdb), else the test MongoDB
// (mongo-java-server: in memory, no indexes, every query scans the collection).
//
// Knobs (env):
//   BENCH_SIZES         checkpoints stored, ascending (default 1000,100000 with MONGODB_URI;
//                       1000,10000 on mongo-java-server, where 100k takes ~10 min of scans)
//   BENCH_SAMPLES       most rounds per read row (default 100)
//   BENCH_OP_SECONDS    time budget per read row, after 5 rounds (default 2)
//   BENCH_TURNS         most rounds of turns per size (default 20); BENCH_TURN_SECONDS (default 10)
//   BENCH_FILL_TURNS    turns per stored conversation (default 5)
//   BENCH_LIST_LIMIT    N of the list rows (default 10)
//   BENCH_LONG_TURNS    turns of the long conversation (default 50; 0 skips it; the long
//                       case is 500, ~3,500 checkpoints: upstream then stores ~3 GB and one cold
//                       list() of it takes minutes, so run it with BENCH_LONG_SAMPLES=1)
//   BENCH_LONG_SAMPLES  most rounds per long-conversation read (default 5); BENCH_LONG_SECONDS (20)
//   BENCH_SAVERS        default memory,upstream,ours
//   BENCH_KEEP=1        keep the databases (their names are printed) for a closer look
import { performance } from "node:perf_hooks";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { createLogger } from "@switchboard/common";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { benchReport } from "../src/index.js";
import {
  type AgentGraph,
  agentGraph,
  runTurn,
  type TimedOperation,
  TimedSaver,
} from "./checkpointer-graph.js";
import { type ListTarget, type Row, renderRows, targetVerdicts } from "./checkpointer-report.js";
import { type Contender, createContenders, SAVER_NAMES, type SaverName } from "./checkpointer-savers.js";
import { type SampleBudget, sideBySide } from "./checkpointer-stats.js";

const report = benchReport(new URL("./README.md", import.meta.url), "checkpointer");

const numbers = (value: string) =>
  value
    .split(",")
    .map((item) => Number(item.trim()))
    .filter((item) => Number.isFinite(item) && item > 0);
const knob = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** mongo-java-server scans every collection on every query: 100k there takes ~10 min and shows no index. */
const SIZES = numbers(
  process.env.BENCH_SIZES ?? (process.env.MONGODB_URI ? "1000,100000" : "1000,10000"),
).sort((a, b) => a - b);
const SAMPLES = knob("BENCH_SAMPLES", 100);
const OP_SECONDS = knob("BENCH_OP_SECONDS", 2);
const TURNS = knob("BENCH_TURNS", 20);
const TURN_SECONDS = knob("BENCH_TURN_SECONDS", 10);
const FILL_TURNS = knob("BENCH_FILL_TURNS", 5);
const LIST_LIMIT = knob("BENCH_LIST_LIMIT", 10);
const LONG_TURNS = knob("BENCH_LONG_TURNS", 50);
const LONG_SAMPLES = knob("BENCH_LONG_SAMPLES", 5);
const LONG_SECONDS = knob("BENCH_LONG_SECONDS", 20);
const KEEP = process.env.BENCH_KEEP === "1";
const SAVERS = (process.env.BENCH_SAVERS ?? SAVER_NAMES.join(","))
  .split(",")
  .map((name) => name.trim())
  .filter((name) => name.length > 0) as SaverName[];
for (const name of SAVERS) {
  if (!SAVER_NAMES.includes(name)) throw new Error(`BENCH_SAVERS: unknown saver "${name}" (${SAVER_NAMES})`);
}
/** The target: `list` with 100k checkpoints stored, under 5 ms (ours, p50). */
const target: ListTarget = { ms: 5, stored: 100_000 };
/** Conversations a warm process has read before and serves again. */
const WARM_THREADS = 16;
const TEMPLATE = "template";
const LONG_THREAD = "long-conversation";

interface Player {
  contender: Contender;
  timed: TimedSaver;
  graph: AgentGraph;
  /** Checkpoint ids of the template conversation, newest first (every copy has the same). */
  ids: string[];
}

const rows: Row[] = [];
/** Conversations the bench ran turns on (longer than the copies), and the current warm pool. */
const turned = new Set<string>();
let warmPool = new Set<string>();
/** Commands sent by the bench's client and by getCheckpointer()'s (both monitored). */
let commands = 0;
const countCommand = () => {
  commands++;
};
const commandCount = () => commands;
let checkpointsPerTurn = 7;
const sectionOf = (stored: number) => `${stored.toLocaleString("en-US")} stored`;
const say = (text: string) => process.stderr.write(`${text}\n`);
const threadConfig = (thread: string, extra: Record<string, string> = {}): RunnableConfig => ({
  configurable: { thread_id: thread, checkpoint_ns: "", ...extra },
});

async function drain(tuples: AsyncGenerator<unknown>): Promise<number> {
  let count = 0;
  for await (const _ of tuples) count++;
  return count;
}

/** The read operations, each on one conversation of a saver whose template ids are `ids`. */
function readOperations(perThread: number) {
  const middle = (ids: string[]) => ids[Math.floor(ids.length / 2)] ?? "";
  return {
    "getTuple latest": (saver: BaseCheckpointSaver, thread: string) => saver.getTuple(threadConfig(thread)),
    "getTuple by id": (saver: BaseCheckpointSaver, thread: string, ids: string[]) =>
      saver.getTuple(threadConfig(thread, { checkpoint_id: middle(ids) })),
    [`list limit ${LIST_LIMIT}`]: (saver: BaseCheckpointSaver, thread: string) =>
      drain(saver.list(threadConfig(thread), { limit: LIST_LIMIT })),
    [`list before, limit ${LIST_LIMIT}`]: (saver: BaseCheckpointSaver, thread: string, ids: string[]) =>
      drain(
        saver.list(threadConfig(thread), {
          before: { configurable: { checkpoint_id: middle(ids) } },
          limit: LIST_LIMIT,
        }),
      ),
    [`list all (${perThread})`]: (saver: BaseCheckpointSaver, thread: string) =>
      drain(saver.list(threadConfig(thread))),
  } satisfies Record<string, (saver: BaseCheckpointSaver, thread: string, ids: string[]) => Promise<unknown>>;
}

const readBudget: SampleBudget = { rounds: SAMPLES, seconds: OP_SECONDS, minRounds: 5 };
const turnBudget: SampleBudget = { rounds: TURNS, seconds: TURN_SECONDS, minRounds: 3 };

async function measureReads(players: Player[], stored: number, threads: string[], perThread: number) {
  const section = sectionOf(stored);
  const names = players.map((player) => player.contender.name);
  const coldNames = players.filter((player) => player.contender.cold).map((player) => player.contender.name);
  const byName = new Map(players.map((player) => [player.contender.name, player]));
  // Conversations still as copied (no bench turn added to them), so every read is of the same size.
  const untouched = threads.filter((thread) => !turned.has(thread));
  const poolSize = Math.min(WARM_THREADS, untouched.length);
  const pool = Array.from(
    { length: poolSize },
    (_, k) => untouched[Math.floor(((k + 0.5) * untouched.length) / poolSize)] ?? "",
  );
  warmPool = new Set(pool);
  // A warm process has read these conversations before.
  for (const player of players) {
    for (const thread of pool) {
      await drain(player.contender.warm.list(threadConfig(thread)));
      await player.contender.warm.getTuple(threadConfig(thread));
    }
  }
  for (const [operation, read] of Object.entries(readOperations(perThread))) {
    const warm = await sideBySide(
      names,
      (name, round) => {
        const player = byName.get(name) as Player;
        return read(player.contender.warm, pool[round % pool.length] ?? "", player.ids);
      },
      readBudget,
      undefined,
      commandCount,
    );
    rows.push({ section, stored, operation, reader: "warm", samples: warm.times, queries: warm.queries });
    const cold = await sideBySide(
      coldNames,
      (name, round) => {
        const player = byName.get(name) as Player;
        const thread = untouched[(round * 7919 + 13) % untouched.length] ?? "";
        return read(player.contender.cold?.() as BaseCheckpointSaver, thread, player.ids);
      },
      readBudget,
      undefined,
      commandCount,
    );
    rows.push({ section, stored, operation, reader: "cold", samples: cold.times, queries: cold.queries });
  }
}

/** Times turns, and the put / putWrites calls made in them, into `into` by operation name. */
function recordInto(player: Player, into: Map<string, Map<SaverName, number[]>>, suffix = "") {
  player.timed.onTime = (operation: TimedOperation, took: number) => {
    if (operation === "getTuple") return;
    const key = `${operation}${suffix}`;
    const bySaver = into.get(key) ?? new Map<SaverName, number[]>();
    into.set(key, bySaver);
    const samples = bySaver.get(player.contender.name) ?? [];
    bySaver.set(player.contender.name, samples);
    samples.push(took);
  };
}

async function measureTurns(players: Player[], stored: number, threads: string[]) {
  const section = sectionOf(stored);
  const byName = new Map(players.map((player) => [player.contender.name, player]));
  const calls = new Map<string, Map<SaverName, number[]>>();
  let turnNumber = 1_000;
  for (const reader of ["warm", "cold"] as const) {
    const names = players
      .filter((player) => reader === "warm" || player.contender.cold)
      .map((player) => player.contender.name);
    // Away from the warm pool, whose conversations the read rows expect as copied.
    const away = threads.filter((thread) => !warmPool.has(thread));
    const candidates = away.length > 0 ? away : threads;
    const threadOf = (round: number) => {
      const thread = candidates[(round * 104729 + (reader === "warm" ? 5 : 11)) % candidates.length] ?? "";
      turned.add(thread);
      return thread;
    };
    const samples = await sideBySide(
      names,
      (name, round) => runTurn((byName.get(name) as Player).graph, threadOf(round), turnNumber++),
      turnBudget,
      async (name, round) => {
        const player = byName.get(name) as Player;
        player.timed.onTime = undefined;
        if (reader === "warm") {
          // The process ran this conversation's previous turn.
          player.timed.inner = player.contender.warm;
          await runTurn(player.graph, threadOf(round), turnNumber++);
        } else {
          player.timed.inner = player.contender.cold?.() as BaseCheckpointSaver;
        }
        recordInto(player, calls, ` (${reader})`);
      },
      commandCount,
    );
    const operation = `turn (${checkpointsPerTurn} checkpoints)`;
    rows.push({ section, stored, operation, reader, samples: samples.times, queries: samples.queries });
  }
  for (const player of players) {
    player.timed.onTime = undefined;
    player.timed.inner = player.contender.warm;
  }
  for (const reader of ["warm", "cold"] as const) {
    for (const operation of ["put", "putWrites"]) {
      const samples = calls.get(`${operation} (${reader})`);
      if (samples) rows.push({ section, stored, operation: `${operation} (in turns)`, reader, samples });
    }
  }
}

async function writeTemplates(players: Player[]): Promise<number> {
  let perThread = 0;
  for (const player of players) {
    for (let turn = 1; turn <= FILL_TURNS; turn++) await runTurn(player.graph, TEMPLATE, turn);
    const tuples = [];
    for await (const tuple of player.contender.warm.list(threadConfig(TEMPLATE))) tuples.push(tuple);
    player.ids = tuples.map((tuple) => String(tuple.config.configurable?.checkpoint_id));
    perThread = player.ids.length;
  }
  checkpointsPerTurn = Math.round(perThread / FILL_TURNS);
  return perThread;
}

async function longConversation(players: Player[]) {
  const section = `long conversation: ${LONG_TURNS} turns`;
  const names = players.map((player) => player.contender.name);
  const coldNames = players.filter((player) => player.contender.cold).map((player) => player.contender.name);
  const byName = new Map(players.map((player) => [player.contender.name, player]));
  const tenth = Math.max(1, Math.floor(LONG_TURNS / 10));
  const calls = new Map<string, Map<SaverName, number[]>>();
  const perSaver = () => new Map<SaverName, number[]>(names.map((name) => [name, []]));
  const [first, last, firstQueries, lastQueries] = [perSaver(), perSaver(), perSaver(), perSaver()];
  const started = performance.now();
  for (let turn = 1; turn <= LONG_TURNS; turn++) {
    for (let i = 0; i < names.length; i++) {
      const player = byName.get(names[(turn + i) % names.length] as SaverName) as Player;
      player.timed.inner = player.contender.warm;
      if (turn > LONG_TURNS - tenth) recordInto(player, calls, " (last tenth of turns)");
      else player.timed.onTime = undefined;
      const before = commands;
      const start = performance.now();
      await runTurn(player.graph, LONG_THREAD, turn);
      const took = performance.now() - start;
      const name = player.contender.name;
      if (turn <= tenth) {
        first.get(name)?.push(took);
        firstQueries.get(name)?.push(commands - before);
      }
      if (turn > LONG_TURNS - tenth) {
        last.get(name)?.push(took);
        lastQueries.get(name)?.push(commands - before);
      }
    }
    if (turn % 50 === 0) say(`long conversation: ${turn} turns (${elapsed(started)})`);
  }
  for (const player of players) player.timed.onTime = undefined;
  rows.push({
    section,
    operation: "turn (first tenth)",
    reader: "warm",
    samples: first,
    queries: firstQueries,
  });
  rows.push({ section, operation: "turn (last tenth)", reader: "warm", samples: last, queries: lastQueries });
  for (const operation of ["put", "putWrites"]) {
    const samples = calls.get(`${operation} (last tenth of turns)`);
    if (samples)
      rows.push({ section, operation: `${operation} (last tenth of turns)`, reader: "warm", samples });
  }

  // LangGraph writes the same checkpoints per turn here every time (see writeTemplates).
  const stored = LONG_TURNS * checkpointsPerTurn;
  const longBudget: SampleBudget = { rounds: LONG_SAMPLES, seconds: LONG_SECONDS, minRounds: 1 };
  const reads: Array<[string, (saver: BaseCheckpointSaver) => Promise<unknown>]> = [
    ["getTuple latest", (saver) => saver.getTuple(threadConfig(LONG_THREAD))],
    [
      `list limit ${LIST_LIMIT}`,
      (saver) => drain(saver.list(threadConfig(LONG_THREAD), { limit: LIST_LIMIT })),
    ],
    [`list all (${stored})`, (saver) => drain(saver.list(threadConfig(LONG_THREAD)))],
  ];
  for (const [operation, read] of reads) {
    for (const reader of ["cold", "warm"] as const) {
      const samples = await sideBySide(
        reader === "cold" ? coldNames : names,
        (name) => {
          const { contender } = byName.get(name) as Player;
          return read(reader === "cold" ? (contender.cold?.() as BaseCheckpointSaver) : contender.warm);
        },
        longBudget,
        undefined,
        commandCount,
      );
      rows.push({ section, operation, reader, samples: samples.times, queries: samples.queries });
      say(`long conversation: ${operation}, ${reader} (${elapsed(started)})`);
    }
  }
}

const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function main() {
  const external = process.env.MONGODB_URI;
  const mongo = external ? undefined : await startTestMongo();
  const uri = external ?? mongo?.uri ?? "";
  const logger = createLogger({ level: "silent" });
  const dbName = `bench_${Date.now()}`;
  const client = await MongoClient.connect(uri, { monitorCommands: true });
  client.on("commandStarted", countCommand);
  const contenders = await createContenders(SAVERS, { uri, client, dbName }, logger, countCommand);
  const players: Player[] = contenders.map((contender) => {
    const timed = new TimedSaver(contender.warm);
    return { contender, timed, graph: agentGraph(timed), ids: [] };
  });
  const names = players.map((player) => player.contender.name);
  const started = performance.now();

  try {
    const perThread = await writeTemplates(players);
    say(`template conversation: ${FILL_TURNS} turns, ${perThread} checkpoints (${elapsed(started)})`);
    let threadCount = 0;
    for (const size of SIZES) {
      const target = Math.max(1, Math.round(size / perThread));
      const fresh = Array.from({ length: target - threadCount }, (_, i) => `conv-${threadCount + i}`);
      for (const player of players) {
        const copyStarted = performance.now();
        for (let i = 0; i < fresh.length; i += 500) {
          await player.contender.copyThread(TEMPLATE, fresh.slice(i, i + 500));
        }
        say(`${player.contender.name}: ${target * perThread} checkpoints stored (${elapsed(copyStarted)})`);
      }
      threadCount = Math.max(threadCount, target);
      const threads = Array.from({ length: threadCount }, (_, i) => `conv-${i}`);
      const stored = target * perThread;
      await measureReads(players, stored, threads, perThread);
      say(`${sectionOf(stored)}: reads measured (${elapsed(started)})`);
      await measureTurns(players, stored, threads);
      say(`${sectionOf(stored)}: turns measured (${elapsed(started)})`);
    }
    if (LONG_TURNS > 0) await longConversation(players);
  } finally {
    for (const contender of contenders) await contender.close();
    for (const suffix of KEEP ? [] : ["upstream", "ours"]) {
      await client
        .db(`${dbName}_${suffix}`)
        .dropDatabase()
        .catch(() => undefined);
    }
    if (KEEP) say(`kept the databases ${dbName}_upstream and ${dbName}_ours`);
    await client.close();
    await mongo?.stop();
  }

  report.print(
    `\nMongoDB: ${external ? "MONGODB_URI" : "test MongoDB (mongo-java-server: no indexes, every query scans)"}; ` +
      `conversations of ${FILL_TURNS} turns; up to ${SAMPLES} rounds (${OP_SECONDS} s) per read row, ` +
      `${TURNS} rounds (${TURN_SECONDS} s) of turns; savers side by side, one sample each per round.\n` +
      "warm: the process read (or wrote) the conversation before; cold: a fresh saver instance, cache empty.\n" +
      "ops/s: one caller, calls back to back (1000 ÷ mean ms). n: samples of the row's least-sampled saver.\n",
  );
  report.print(renderRows(rows, names, target));
  const verdicts = targetVerdicts(rows, target);
  if (verdicts.length > 0) {
    report.print(
      `\nTarget: ours, list with ${target.stored.toLocaleString("en-US")} stored, p50 under ${target.ms} ms:`,
    );
    for (const line of verdicts) report.print(line);
  }
  say(`total ${elapsed(started)}`);
}

await main();
report.save();
