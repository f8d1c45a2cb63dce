// `pnpm bench:triggers` (pnpm --filter @switchboard-testing/benches bench:triggers): the trigger receiver
// (tools/triggers) as it runs, two replicas on one MongoDB (MONGODB_URI if set, else the test MongoDB),
// their runs on the real supervisor (npm start's fleet with no other agent; AUTH_MODE=none) whose model
// is the scripted LLM, answering at once. In one run:
//   1. from a delivery received to its first model call: BENCH_LATENCY_SAMPLES pairs of signed generic
//      deliveries (default 50), timed from the POST sent to the supervisor's model request arriving at
//      the scripted LLM (one process, one clock); the first of each pair sent with no other run going
//      (target ≤ 50 ms), the second as the first reaches the model, so the end of the first's run
//      shares the cores with it (how this bench timed every delivery before);
//   2. BENCH_RATE deliveries a minute (default 1,000) for BENCH_SECONDS (default 60), each sent to
//      both replicas at once (as a sender's retry or a load balancer's double would be), then every run
//      waited for: how many ran, how many reached the model more than once (target: none), what the
//      receivers recorded for any that did not, and each replica's memory through the load (RSS, and
//      the V8 old space it keeps: target flat after warm-up).
import { createHmac, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { onlyAgents, startFleet } from "@switchboard/fleet";
import { type AgentProcess, freePort, rssMb, startAgentProcess } from "@switchboard-testing/test-agents";
import { lastUserText, say, startScriptedLlm } from "@switchboard-testing/test-llm";
import { startTestMongo } from "@switchboard-testing/test-mongo";
import { MongoClient } from "mongodb";
import { benchReport } from "../src/index.js";

const report = benchReport(new URL("./README.md", import.meta.url), "triggers");

const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 50);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SECRET = "bench-generic-secret";
/** How long a single delivery's run may take to reach the model before it counts as not reaching it. */
const SAMPLE_TIMEOUT_MS = 30_000;
/** How long the sustained load's runs are waited for after the last delivery is sent, at most. */
const DRAIN_MS = 180_000;
/** Runs not yet at the model are looked up in MongoDB (have they ended?) only once this few are left. */
const DRAIN_CHECKED = 200;
/** Pairs of single deliveries sent first to warm the path up, not counted. */
const WARM_UP = 5;
/** How often the run history is read while waiting for a run to end (between samples, not during one). */
const RUN_END_POLL_MS = 10;
const root = join(import.meta.dirname, "..", "..", "..");

/** When each delivery's prompt first reached the model, and how many times, by its marker. */
const arrivals = new Map<string, { at: number; count: number }>();
/** Who waits for a marker's first model call (the single deliveries): told as it arrives, no polling. */
const awaited = new Map<string, () => void>();
const llm = await startScriptedLlm({
  record: false,
  script: (request) => {
    const marker = /bench-[0-9a-f-]{36}/.exec(lastUserText(request) ?? "")?.[0];
    if (marker) {
      const seen = arrivals.get(marker);
      if (seen) seen.count += 1;
      else {
        arrivals.set(marker, { at: performance.now(), count: 1 });
        awaited.get(marker)?.();
      }
    }
    return say("Looked.");
  },
});

/** Resolves when `ref`'s run first reaches the model, or after `timeoutMs` (then it never did). */
function arrival(ref: string, timeoutMs: number): Promise<void> {
  if (arrivals.has(ref)) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      awaited.delete(ref);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    awaited.set(ref, done);
  });
}
const mongo = process.env.MONGODB_URI ? undefined : await startTestMongo();
const storage = {
  MONGODB_URI: process.env.MONGODB_URI ?? mongo?.uri ?? "",
  LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME: `bench-triggers-${Date.now()}`,
};
const quiet = { PATH: process.env.PATH, LOG_LEVEL: "error", ...storage };
const fleet = await startFleet({
  root,
  env: {
    ...quiet,
    ...llm.env,
    ...onlyAgents(root, []),
    SUPERVISOR_PORT: String(await freePort()),
    WEB_PORT: String(await freePort()),
  },
});
const configFile = join(mkdtempSync(join(tmpdir(), "bench-triggers-")), "triggers.yaml");
writeFileSync(
  configFile,
  `tasks:
  - id: look
    name: Look
    prompt: "Look at {{ref}}"
    trigger: { type: webhook, provider: generic_hmac, secret_env: LOOK_SECRET, dedup_header: X-Webhook-Delivery }
`,
);
const receiverEnv = {
  ...quiet,
  HOST: "127.0.0.1",
  PORT: "0",
  TRIGGERS_CONFIG_FILE: configFile,
  CAIPE_URL: fleet.supervisor.url,
  LOOK_SECRET: SECRET,
};
const packageDir = join(root, "tools", "triggers");
const replicas: AgentProcess[] = await Promise.all([
  startAgentProcess(packageDir, { env: receiverEnv }),
  startAgentProcess(packageDir, { env: receiverEnv }),
]);
/** How many of the runs of `refs` (deliveries) the receivers still show running. */
async function stillRunning(refs: string[]): Promise<number> {
  const client = await MongoClient.connect(storage.MONGODB_URI);
  try {
    const runs = client.db(storage.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME).collection("trigger_instances");
    return await runs.countDocuments({ deliveryId: { $in: refs }, status: "running" });
  } finally {
    await client.close();
  }
}

/** How the receivers recorded the runs of `refs` (deliveries that never reached the model): count by status and error. */
async function whyNotRun(refs: string[]): Promise<Map<string, number>> {
  const reasons = new Map<string, number>();
  if (refs.length === 0) return reasons;
  const client = await MongoClient.connect(storage.MONGODB_URI);
  try {
    const runs = client.db(storage.LANGGRAPH_CHECKPOINT_MONGODB_DB_NAME).collection("trigger_instances");
    for (const run of await runs.find({ deliveryId: { $in: refs } }).toArray()) {
      const reason = `${run.status}: ${String(run.error ?? "").slice(0, 200)}`;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
  } finally {
    await client.close();
  }
  return reasons;
}

/** A replica that ends before the bench does: said at once, with its last output, and the bench fails. */
let stopping = false;
const exits: string[] = [];
replicas.forEach((replica, index) => {
  void replica.exited.then((code) => {
    if (stopping) return;
    const said = `replica ${index + 1} ended (exit ${code}) during the bench; its last output:\n${replica.logs().slice(-4_000)}`;
    exits.push(said);
    process.stderr.write(`${said}\n`);
  });
});

/** A signed generic delivery of `ref` to one replica; resolves with its HTTP status and the run's id. */
async function deliver(replica: AgentProcess, ref: string): Promise<{ status: number; runId?: string }> {
  const body = JSON.stringify({ ref });
  const t = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex");
  const answer = await fetch(`${replica.url}/api/v1/hooks/look`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-webhook-timestamp": t,
      "x-webhook-signature-256": `sha256=${signature}`,
      // The delivery's id: the same on both copies.
      "x-webhook-delivery": ref,
    },
    body,
  });
  const { run_id: runId } = (await answer.json().catch(() => ({}))) as { run_id?: string };
  return { status: answer.status, ...(runId ? { runId } : {}) };
}

/** One delivery to `replica`, timed to its first model call; undefined if its run never reached it. */
async function single(
  replica: AgentProcess,
): Promise<{ latency: number; accepted: number; runId: string } | undefined> {
  const ref = `bench-${randomUUID()}`;
  const sent = performance.now();
  const { status, runId } = await deliver(replica, ref);
  const answered = performance.now();
  if (status !== 202 || !runId) throw new Error(`a delivery was answered ${status}`);
  // A run that fails (the supervisor unreachable on a loaded machine) never calls the model. Waited
  // for as an event: a 1 ms polling loop here would take CPU from the processes being measured.
  await arrival(ref, SAMPLE_TIMEOUT_MS);
  const at = arrivals.get(ref)?.at;
  return at === undefined ? undefined : { latency: at - sent, accepted: answered - sent, runId };
}

/** Resolves once the replica's run history shows `runId` ended (its answer recorded). */
async function runEnded(replica: AgentProcess, runId: string): Promise<void> {
  for (;;) {
    const answer = await fetch(`${replica.url}/api/v1/tasks/look/runs`);
    const { runs } = (await answer.json()) as { runs: Array<{ run_id: string; status: string }> };
    if (runs.find((run) => run.run_id === runId)?.status !== "running") return;
    await sleep(RUN_END_POLL_MS);
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};
/** How often each replica's memory is read during the sustained load. */
const MEMORY_EVERY_MS = 5_000;
/** How many equal parts of the sustained load the memory table shows (the first is the warm-up). */
const MEMORY_PARTS = 5;

/**
 * A replica's V8 old space in use, MB, from its /metrics (prom-client's default metrics): where what
 * a leak keeps ends up. Between major collections it rises with garbage too, so a part's lowest
 * reading is what it keeps: a leak lifts those from part to part, garbage does not.
 */
async function oldSpaceMb(replica: AgentProcess): Promise<number> {
  const answer = await fetch(`${replica.url}/metrics`);
  const used = /^nodejs_heap_space_size_used_bytes\{space="old"\} (\S+)$/m.exec(await answer.text());
  return used ? Number(used[1]) / 2 ** 20 : Number.NaN;
}
/** Each replica's memory now: RSS (from /proc) and old space in use. */
async function memoryNow(): Promise<{ at: number; rss: number[]; old: number[] }> {
  const old = await Promise.all(replicas.map(oldSpaceMb));
  return { at: performance.now(), rss: replicas.map((replica) => rssMb([replica.pid])), old };
}

try {
  // 1. A delivery to its first model call, in pairs (after a few to warm the path up): the first sent
  // once every run before it has ended, the second as the first reaches the model, so its path
  // overlaps the end of the first's run (its answer, checkpoints and record) on the same cores.
  const alone: number[] = [];
  const overlapping: number[] = [];
  const accepted: number[] = [];
  let lost = 0;
  for (let pair = 0; pair < LATENCY_SAMPLES + WARM_UP; pair++) {
    const replica = replicas[pair % 2] as AgentProcess;
    const first = await single(replica);
    const second = await single(replica);
    for (const run of [first, second]) if (run) await runEnded(replica, run.runId);
    lost += (first ? 0 : 1) + (second ? 0 : 1);
    if (pair < WARM_UP) continue;
    if (first) {
      alone.push(first.latency);
      accepted.push(first.accepted);
    }
    if (second) overlapping.push(second.latency);
  }

  // 2. RATE a minute for SECONDS, each delivery to both replicas at once.
  const total = Math.round((RATE * SECONDS) / 60);
  const gapMs = 60_000 / RATE;
  const refs: string[] = [];
  const statuses = new Map<number, number>();
  const memory = [await memoryNow()];
  const began = performance.now();
  const reading = setInterval(
    () =>
      void memoryNow().then(
        (now) => memory.push(now),
        () => undefined,
      ),
    MEMORY_EVERY_MS,
  );
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = began + i * gapMs;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const ref = `bench-${randomUUID()}`;
    refs.push(ref);
    sends.push(
      Promise.all(replicas.map((replica) => deliver(replica, ref))).then((answers) => {
        for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
    );
  }
  await Promise.all(sends);
  const sentIn = (performance.now() - began) / 1000;
  // Every run reaches the model, however far behind the supervisor is, or ends without (failed, and
  // is counted): waited for until none is left running, or for DRAIN_MS at most.
  const deadline = performance.now() + DRAIN_MS;
  for (let left = refs; left.length > 0 && performance.now() < deadline && exits.length === 0; ) {
    await sleep(1_000);
    left = left.filter((ref) => !arrivals.has(ref));
    if (left.length > 0 && left.length <= DRAIN_CHECKED && (await stillRunning(left)) === 0) break;
  }
  const lastArrival = Math.max(...refs.map((ref) => arrivals.get(ref)?.at ?? began));
  const drained = (lastArrival - began) / 1000;
  clearInterval(reading);
  await sleep(2_000);
  memory.push(await memoryNow());
  // The readings in each fifth of the time from the first send to the last reading (the first
  // part starts with the reading before any load).
  const span = (memory.at(-1)?.at ?? began) - began;
  const parts = Array.from({ length: MEMORY_PARTS }, (_, part) =>
    memory.filter(
      (now, index) =>
        (index === 0 && part === 0) ||
        (now.at - began > (span * part) / MEMORY_PARTS &&
          now.at - began <= (span * (part + 1)) / MEMORY_PARTS),
    ),
  ).filter((part) => part.length > 0); // a run shorter than MEMORY_PARTS readings has fewer parts
  const lowest = (part: Array<{ old: number[] }>) =>
    replicas.map((_, replica) => Math.min(...part.map((now) => now.old[replica] ?? Number.NaN)));
  const mbs = (values: number[] | undefined) => (values ?? []).map((mb) => mb.toFixed(0)).join(" + ");
  const ran = refs.filter((ref) => arrivals.has(ref)).length;
  const doubled = refs.filter((ref) => (arrivals.get(ref)?.count ?? 0) > 1).length;
  // What the receivers recorded for the runs that never reached the model (failed, with why).
  const missing = refs.filter((ref) => !arrivals.has(ref));
  const why = await whyNotRun(missing);

  if (exits.length > 0) throw new Error(exits.join("\n"));
  report.print(
    `\nTwo trigger receivers on one MongoDB, their runs on the supervisor (scripted model, answering at once); ${LATENCY_SAMPLES} single deliveries, then ${RATE} deliveries a minute for ${SECONDS} s, each sent to both replicas\n`,
  );
  report.print(
    "| measure | value | target |\n| --- | ---: | --- |\n" +
      `| delivery received → first model call, p50 (each sent with no other run going) | ${percentile(alone, 0.5).toFixed(1)} ms (${alone.length} runs; ${lost} of ${2 * (LATENCY_SAMPLES + WARM_UP)} never reached it) | ≤ 50 ms |\n` +
      `| delivery received → first model call, p95 (the same) | ${percentile(alone, 0.95).toFixed(1)} ms | |\n` +
      `| of which: delivery → 202 accepted (verified, claimed), p50 | ${percentile(accepted, 0.5).toFixed(1)} ms | |\n` +
      `| delivery received → first model call, p50, sent as the run before it reached the model (its end overlapping) | ${percentile(overlapping, 0.5).toFixed(1)} ms (${overlapping.length} runs) | |\n` +
      `| deliveries sent (each to both replicas) | ${total} in ${sentIn.toFixed(1)} s (${((total / sentIn) * 60).toFixed(0)}/min) | 1,000/min |\n` +
      `| answers: 202 accepted / 200 duplicate / other | ${statuses.get(202) ?? 0} / ${statuses.get(200) ?? 0} / ${[...statuses].filter(([s]) => s !== 202 && s !== 200).reduce((n, [, c]) => n + c, 0)} | one 202 per delivery |\n` +
      `| runs that reached the model | ${ran} of ${total} (the last by ${drained.toFixed(1)} s after the first was sent) | all |\n` +
      (missing.length > 0
        ? `| runs that did not, as recorded (status: error) | ${[...why].map(([reason, count]) => `${count}× ${reason}`).join("; ")} | |\n`
        : "") +
      `| runs that reached the model twice | ${doubled} | 0 |\n` +
      `| replicas' RSS, start → end of each fifth of the load | ${parts.map((part) => mbs(part.at(-1)?.rss)).join(" → ")} MB | flat after warm-up |\n` +
      `| replicas' old space in use, lowest in each fifth | ${parts.map((part) => mbs(lowest(part))).join(" → ")} MB | flat after warm-up |`,
  );
  report.print(
    "\nThe first model call is the supervisor's, timed where the scripted model receives it: the path is the receiver's verification and claim in MongoDB, its A2A call, and the supervisor's turn up to its model request. RSS is read from /proc for each replica's process.",
  );
  report.save();
} finally {
  stopping = true;
  await Promise.all(replicas.map((replica) => replica.kill("SIGTERM")));
  await fleet.stop();
  await llm.close();
  await mongo?.stop();
}
