// pnpm bench:peer — Switchboard beside CAIPE 0.5.x (its own Python Jira agent and supervisor, from
// its public source at the pinned commit, configured only by env), in one run, against the same
// scripted model (test-llm), the same fake Jira and the same MongoDB: p50/p95 turn latency direct
// (to the Jira agent) and routed (through the supervisor), turns/s at 1, 10 and 100 concurrent
// conversations, CPU ms per turn (/proc/<pid>/stat of each side's processes), bytes stored per turn
// (each side's MongoDB database before and after), idle RSS. See bench/README.md.
// MONGODB_URI: a MongoDB to use, else the test MongoDB (mongo-java-server).
// BENCH_SAMPLES: sequential turns per path and side for latency, CPU and bytes (default 20, in
// conversations of BENCH_CONVERSATION_TURNS turns, default 5). BENCH_LLM_LATENCY_MS: the model's
// delay before each reply (default 0). BENCH_TURNS_AT_<n>: turns at concurrency n (defaults below).
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { benchReport } from "@switchboard-testing/benches";
import { startFakeJira } from "@switchboard-testing/fake-jira";
import { cpuMs, rssMb } from "@switchboard-testing/test-agents";
import { startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { CAIPE_COMMIT, ensureCaipeEnv, locateCaipe } from "../src/index.js";
import { rpcEndpoint, sendTurn } from "./a2a-send.js";
import { type Fleet, startCaipeFleet, startSwitchboardFleet } from "./fleets.js";
import { storedBytes } from "./mongo-bytes.js";
import { isAnswer, peerScript, QUESTION, ROUTED_QUESTION, sideOf } from "./script.js";

const report = benchReport(new URL("./README.md", import.meta.url), "peer");

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const CONVERSATION_TURNS = Number(process.env.BENCH_CONVERSATION_TURNS ?? 5);
const LLM_LATENCY_MS = Number(process.env.BENCH_LLM_LATENCY_MS ?? 0);
const LEVELS = [1, 10, 100];
/** Turns per concurrency level: a modest number, so 100 conversations at once stays bounded on 2 cores. */
const DEFAULT_TURNS: Record<number, number> = { 1: 5, 10: 20, 100: 100 };
/** At least one turn per conversation, so `level` conversations are in flight at once. */
const turnsAt = (level: number) =>
  Math.max(level, Number(process.env[`BENCH_TURNS_AT_${level}`] ?? DEFAULT_TURNS[level] ?? level));
const TARGET_RATE = 2;
const TARGET_COST = 0.5;
const agentsDir = join(import.meta.dirname, "..", "..", "..", "agents");

type PathName = "direct" | "routed";
const PATHS: PathName[] = ["direct", "routed"];

interface Endpoints {
  fleet: Fleet;
  direct: string;
  routed: string;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** One turn of a path; throws when the answer is not the Jira agent's (so no failure is timed as a turn). */
async function turn(side: Endpoints, path: PathName, contextId: string): Promise<void> {
  const text = await sendTurn(side[path], contextId, path === "direct" ? QUESTION : ROUTED_QUESTION);
  if (!isAnswer(text)) {
    throw new Error(`${side.fleet.name} ${path}: not the Jira agent's answer: ${text.slice(0, 400)}`);
  }
}

/** The pids a path's turn runs on: the Jira agent's, and for a routed turn the supervisor's too. */
const pidsOf = (fleet: Fleet, path: PathName) =>
  path === "direct" ? fleet.jira.pids : [...fleet.jira.pids, ...fleet.supervisor.pids];

interface PathCost {
  latencies: number[];
  cpuMsPerTurn: number;
  bytesPerTurn: number;
  modelCallsPerTurn: number;
}

/**
 * SAMPLES sequential turns of one path on every side, a turn of each side per round (order
 * rotating), a new conversation every CONVERSATION_TURNS: each side's latencies, and the CPU time
 * of its processes, its database's growth and its model calls over the batch, per turn.
 */
async function measurePath(
  sides: Endpoints[],
  path: PathName,
  mongo: MongoClient,
  llmRequests: { tools?: { function: { name: string } }[] }[],
): Promise<Map<string, PathCost>> {
  const before = new Map<string, { cpu: number; bytes: number }>();
  for (const side of sides) {
    before.set(side.fleet.name, {
      cpu: cpuMs(pidsOf(side.fleet, path)),
      bytes: await storedBytes(mongo.db(side.fleet.dbName)),
    });
  }
  llmRequests.length = 0;
  const latencies = new Map<string, number[]>(sides.map((side) => [side.fleet.name, []]));
  const contexts = new Map<string, string>();
  for (let round = 0; round < SAMPLES; round++) {
    for (let i = 0; i < sides.length; i++) {
      const side = sides[(round + i) % sides.length] as Endpoints;
      if (round % CONVERSATION_TURNS === 0) contexts.set(side.fleet.name, randomUUID());
      const start = performance.now();
      await turn(side, path, contexts.get(side.fleet.name) ?? "");
      latencies.get(side.fleet.name)?.push(performance.now() - start);
    }
  }
  // Let checkpoint writes a side finishes after answering land before counting bytes and CPU.
  await sleep(2_000);
  const calls = { caipe: 0, switchboard: 0 };
  for (const request of llmRequests) calls[sideOf(request as Parameters<typeof sideOf>[0])]++;
  const result = new Map<string, PathCost>();
  for (const side of sides) {
    const start = before.get(side.fleet.name) as { cpu: number; bytes: number };
    const bytes = await storedBytes(mongo.db(side.fleet.dbName));
    result.set(side.fleet.name, {
      latencies: (latencies.get(side.fleet.name) ?? []).sort((a, b) => a - b),
      cpuMsPerTurn: (cpuMs(pidsOf(side.fleet, path)) - start.cpu) / SAMPLES,
      bytesPerTurn: (bytes - start.bytes) / SAMPLES,
      modelCallsPerTurn: calls[side.fleet.name === "Switchboard" ? "switchboard" : "caipe"] / SAMPLES,
    });
  }
  return result;
}

/** Turns per second with `workers` conversations at once, each worker its own conversation. */
async function throughput(
  side: Endpoints,
  path: PathName,
  workers: number,
  turns: number,
): Promise<{ rate: number; failed: number; seconds: number }> {
  let remaining = turns;
  let failed = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const contextId = randomUUID();
      while (remaining-- > 0) {
        try {
          await turn(side, path, contextId);
        } catch (error) {
          failed++;
          if (failed === 1)
            process.stderr.write(`${side.fleet.name} ${path} at ${workers}: ${String(error)}\n`);
        }
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return { rate: (turns - failed) / seconds, failed, seconds };
}

function table(header: string[], rows: (string | number)[][]): void {
  const cells = rows.map((row) => row.map(String));
  const widths = header.map((title, i) =>
    Math.max(title.length, ...cells.map((row) => (row[i] ?? "").length)),
  );
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  report.print(line(header));
  report.print(line(widths.map((w) => "-".repeat(w))));
  for (const row of cells) report.print(line(row));
}

const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}×` : "—");

async function main() {
  const caipe = locateCaipe();
  if (!caipe.available) throw new Error(`CAIPE cannot run here: ${caipe.reason}`);
  const log = (line: string) => process.stderr.write(`[peer] ${line}\n`);
  const env = await ensureCaipeEnv(caipe, { projects: ["supervisor", "jira"], onLog: log });
  const mongoServer = process.env.MONGODB_URI ? undefined : await startTestMongo();
  const mongoUri = process.env.MONGODB_URI ?? mongoServer?.uri ?? "";
  const llm = await startScriptedLlm({ script: peerScript, latencyMs: LLM_LATENCY_MS });
  const fakeJira = await startFakeJira();
  const mongo = new MongoClient(mongoUri);
  await mongo.connect();
  const stamp = Date.now();
  const shared = {
    mongoUri,
    llmEnv: llm.env,
    llmUrl: llm.url,
    jira: { url: fakeJira.url, email: fakeJira.email, token: fakeJira.token },
  };
  const fleets: Fleet[] = [];
  try {
    log("starting CAIPE's Jira MCP server, Jira agent and supervisor");
    fleets.push(await startCaipeFleet(env, shared, `peer_caipe_${stamp}`));
    log("starting Switchboard's Jira agent and supervisor");
    fleets.push(await startSwitchboardFleet(agentsDir, shared, `peer_switchboard_${stamp}`));
    const sides: Endpoints[] = [];
    for (const fleet of fleets) {
      sides.push({
        fleet,
        direct: await rpcEndpoint(fleet.jira.url),
        routed: await rpcEndpoint(fleet.supervisor.url),
      });
    }
    // Every path answers from the fake Jira before anything is timed; then a few warm-up turns.
    for (const side of sides) {
      for (const path of PATHS) {
        try {
          for (let i = 0; i < 3; i++) await turn(side, path, randomUUID());
        } catch (error) {
          throw new Error(`${String(error)}\n${side.fleet.logs()}`);
        }
      }
    }
    await sleep(5_000);
    const idle = fleets.map((fleet) => ({
      name: fleet.name,
      jira: rssMb(fleet.jira.pids),
      supervisor: rssMb(fleet.supervisor.pids),
    }));

    const costs = new Map<PathName, Map<string, PathCost>>();
    for (const path of PATHS) {
      log(`${SAMPLES} sequential ${path} turns per side`);
      costs.set(path, await measurePath(sides, path, mongo, llm.requests));
    }
    llm.requests.length = 0;

    const rates = new Map<string, { rate: number; failed: number; seconds: number }>();
    for (const path of PATHS) {
      for (const level of LEVELS) {
        for (let i = 0; i < sides.length; i++) {
          const side = sides[(level + i) % sides.length] as Endpoints;
          log(`${side.fleet.name} ${path}: ${turnsAt(level)} turns, ${level} at once`);
          rates.set(
            `${side.fleet.name} ${path} ${level}`,
            await throughput(side, path, level, turnsAt(level)),
          );
          llm.requests.length = 0;
        }
      }
    }

    const [c, s] = fleets.map((fleet) => fleet.name) as [string, string];
    report.print(
      `\npnpm bench:peer — CAIPE ${CAIPE_COMMIT.slice(0, 9)} (0.5.x, its own code, configured by env) beside Switchboard; one scripted model (${LLM_LATENCY_MS} ms before each reply), one fake Jira, one MongoDB (${process.env.MONGODB_URI ? "MONGODB_URI" : "test MongoDB, mongo-java-server"}). A turn: "${QUESTION}" (routed: "${ROUTED_QUESTION}"), A2A message/send.\n`,
    );
    report.print(
      `Latency, CPU, bytes: ${SAMPLES} sequential turns per path and side, interleaved, conversations of ${CONVERSATION_TURNS} turns.\n`,
    );
    table(
      [
        "path",
        `${c} p50 ms`,
        `${c} p95 ms`,
        `${s} p50 ms`,
        `${s} p95 ms`,
        `${s} ÷ ${c} p50`,
        "model calls/turn C | S",
      ],
      PATHS.map((path) => {
        const [cc, sc] = [costs.get(path)?.get(c), costs.get(path)?.get(s)] as [PathCost, PathCost];
        return [
          path,
          quantile(cc.latencies, 0.5).toFixed(0),
          quantile(cc.latencies, 0.95).toFixed(0),
          quantile(sc.latencies, 0.5).toFixed(0),
          quantile(sc.latencies, 0.95).toFixed(0),
          ratio(quantile(sc.latencies, 0.5), quantile(cc.latencies, 0.5)),
          `${cc.modelCallsPerTurn.toFixed(1)} | ${sc.modelCallsPerTurn.toFixed(1)}`,
        ];
      }),
    );
    report.print("\nTurns per second (each conversation a worker sending its next turn when answered)\n");
    table(
      ["path", "at once", "turns", `${c} turns/s`, `${s} turns/s`, `${s} ÷ ${c}`, `target ≥ ${TARGET_RATE}×`],
      PATHS.flatMap((path) =>
        LEVELS.map((level) => {
          const [cr, sr] = [rates.get(`${c} ${path} ${level}`), rates.get(`${s} ${path} ${level}`)] as [
            { rate: number; failed: number },
            { rate: number; failed: number },
          ];
          const failed = (r: { failed: number }) => (r.failed ? ` (${r.failed} failed)` : "");
          return [
            path,
            level,
            turnsAt(level),
            `${cr.rate.toFixed(2)}${failed(cr)}`,
            `${sr.rate.toFixed(2)}${failed(sr)}`,
            cr.rate > 0 ? ratio(sr.rate, cr.rate) : "—",
            // Met only when every Switchboard turn was answered, whatever CAIPE managed.
            sr.failed > 0
              ? "missed (turns failed)"
              : cr.rate > 0 && sr.rate / cr.rate >= TARGET_RATE
                ? "met"
                : cr.rate === 0
                  ? "met (CAIPE answered none)"
                  : "missed",
          ];
        }),
      ),
    );
    report.print(
      `\nCPU ms per turn (utime + stime from /proc/<pid>/stat, summed over the processes a turn runs on: direct the Jira agent — ${c}: ${fleets[0]?.jira.processes}, ${s}: ${fleets[1]?.jira.processes} — routed that and the supervisor) and bytes stored per turn (BSON of every document in each side's database, after − before)\n`,
    );
    table(
      ["path", "measure", c, s, `${s} ÷ ${c}`, `target ≤ ${TARGET_COST}×`],
      PATHS.flatMap((path) => {
        const [cc, sc] = [costs.get(path)?.get(c), costs.get(path)?.get(s)] as [PathCost, PathCost];
        const row = (measure: string, cv: number, sv: number, digits: number) => [
          path,
          measure,
          cv.toFixed(digits),
          sv.toFixed(digits),
          ratio(sv, cv),
          cv > 0 && sv / cv <= TARGET_COST ? "met" : "missed",
        ];
        return [
          row("CPU ms/turn", cc.cpuMsPerTurn, sc.cpuMsPerTurn, 1),
          row("bytes stored/turn", cc.bytesPerTurn, sc.bytesPerTurn, 0),
        ];
      }),
    );
    report.print("\nIdle RSS, MB (after start and a few turns, 5 s idle)\n");
    table(
      ["side", "Jira agent", "supervisor", "total"],
      idle.map((row) => [
        `${row.name}${row.name === c ? ` (Jira: ${fleets[0]?.jira.processes})` : ""}`,
        row.jira.toFixed(0),
        row.supervisor.toFixed(0),
        (row.jira + row.supervisor).toFixed(0),
      ]),
    );
  } finally {
    for (const fleet of fleets) await fleet.stop();
    for (const fleet of fleets)
      await mongo
        .db(fleet.dbName)
        .dropDatabase()
        .catch(() => {});
    await mongo.close();
    await Promise.all([llm.close(), fakeJira.close(), mongoServer?.stop()]);
  }
}

await main();
report.save();
