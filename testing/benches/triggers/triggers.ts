// `pnpm bench:triggers` (pnpm --filter @switchboard-testing/benches bench:triggers): the trigger receiver
// (tools/triggers) as it runs, two replicas on one MongoDB (MONGODB_URI if set, else the test MongoDB),
// their runs on the real supervisor (npm start's fleet with no other agent; AUTH_MODE=none) whose model
// is the scripted LLM, answering at once. In one run:
//   1. from a delivery received to its first model call: BENCH_LATENCY_SAMPLES signed generic deliveries
//      (default 50), one at a time, timed from the POST sent to the supervisor's model request arriving
//      at the scripted LLM (one process, one clock); target ≤ 50 ms;
//   2. BENCH_RATE deliveries a minute (default 1,000) for BENCH_SECONDS (default 60), each sent to
//      both replicas at once (as a sender's retry or a load balancer's double would be), then every run
//      waited for: how many ran, how many reached the model more than once (target: none), the runs'
//      end-to-end time, and each replica's RSS at the start, the middle and the end (target: flat).
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
import { benchReport } from "../src/index.js";

const report = benchReport(new URL("./README.md", import.meta.url), "triggers");

const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 50);
const RATE = Number(process.env.BENCH_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SECRET = "bench-generic-secret";
/** How long a single delivery's run may take to reach the model before it counts as not reaching it. */
const SAMPLE_TIMEOUT_MS = 30_000;
const root = join(import.meta.dirname, "..", "..", "..");

/** When each delivery's prompt first reached the model, and how many times, by its marker. */
const arrivals = new Map<string, { at: number; count: number }>();
const llm = await startScriptedLlm({
  record: false,
  script: (request) => {
    const marker = /bench-[0-9a-f-]{36}/.exec(lastUserText(request) ?? "")?.[0];
    if (marker) {
      const seen = arrivals.get(marker);
      if (seen) seen.count += 1;
      else arrivals.set(marker, { at: performance.now(), count: 1 });
    }
    return say("Looked.");
  },
});
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

/** A signed generic delivery of `ref` to one replica; resolves with its HTTP status. */
async function deliver(replica: AgentProcess, ref: string): Promise<number> {
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
  await answer.body?.cancel();
  return answer.status;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};
const rss = () => replicas.map((replica) => rssMb([replica.pid]));

try {
  // 1. A delivery to its first model call, one at a time (after a few to warm the path up).
  const latencies: number[] = [];
  const accepted: number[] = [];
  const lost: string[] = [];
  for (let i = 0; i < LATENCY_SAMPLES + 5; i++) {
    const ref = `bench-${randomUUID()}`;
    const sent = performance.now();
    const status = await deliver(replicas[i % 2] as AgentProcess, ref);
    const answered = performance.now();
    if (status !== 202) throw new Error(`a delivery was answered ${status}`);
    // A run that fails (the supervisor unreachable on a loaded machine) never calls the model.
    const giveUp = performance.now() + SAMPLE_TIMEOUT_MS;
    while (!arrivals.has(ref) && performance.now() < giveUp) await sleep(1);
    if (!arrivals.has(ref)) {
      lost.push(ref);
      continue;
    }
    if (i >= 5) {
      latencies.push((arrivals.get(ref)?.at ?? sent) - sent);
      accepted.push(answered - sent);
    }
  }

  // 2. RATE a minute for SECONDS, each delivery to both replicas at once.
  const total = Math.round((RATE * SECONDS) / 60);
  const gapMs = 60_000 / RATE;
  const refs: string[] = [];
  const statuses = new Map<number, number>();
  const memory = [rss()];
  const began = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = began + i * gapMs;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const ref = `bench-${randomUUID()}`;
    refs.push(ref);
    sends.push(
      Promise.all(replicas.map((replica) => deliver(replica, ref))).then((answers) => {
        for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
    );
    if (i === Math.floor(total / 2)) memory.push(rss());
  }
  await Promise.all(sends);
  const sentIn = (performance.now() - began) / 1000;
  // Every run reaches the model, however far behind the supervisor is (or fails, and is counted).
  const deadline = performance.now() + 180_000;
  while (refs.some((ref) => !arrivals.has(ref)) && performance.now() < deadline) await sleep(200);
  const drained = (performance.now() - began) / 1000;
  await sleep(2_000);
  memory.push(rss());
  const ran = refs.filter((ref) => arrivals.has(ref)).length;
  const doubled = refs.filter((ref) => (arrivals.get(ref)?.count ?? 0) > 1).length;

  report.print(
    `\nTwo trigger receivers on one MongoDB, their runs on the supervisor (scripted model, answering at once); ${LATENCY_SAMPLES} single deliveries, then ${RATE} deliveries a minute for ${SECONDS} s, each sent to both replicas\n`,
  );
  report.print(
    "| measure | value | target |\n| --- | ---: | --- |\n" +
      `| delivery received → first model call, p50 | ${percentile(latencies, 0.5).toFixed(1)} ms (${latencies.length} runs; ${lost.length} never reached it) | ≤ 50 ms |\n` +
      `| delivery received → first model call, p95 | ${percentile(latencies, 0.95).toFixed(1)} ms | |\n` +
      `| of which: delivery → 202 accepted (verified, claimed), p50 | ${percentile(accepted, 0.5).toFixed(1)} ms | |\n` +
      `| deliveries sent (each to both replicas) | ${total} in ${sentIn.toFixed(1)} s (${((total / sentIn) * 60).toFixed(0)}/min) | 1,000/min |\n` +
      `| answers: 202 accepted / 200 duplicate / other | ${statuses.get(202) ?? 0} / ${statuses.get(200) ?? 0} / ${[...statuses].filter(([s]) => s !== 202 && s !== 200).reduce((n, [, c]) => n + c, 0)} | one 202 per delivery |\n` +
      `| runs that reached the model | ${ran} of ${total} (the last by ${drained.toFixed(1)} s) | all |\n` +
      `| runs that reached the model twice | ${doubled} | 0 |\n` +
      `| replicas' RSS, start → middle → end | ${memory.map((m) => m.map((mb) => mb.toFixed(0)).join(" + ")).join(" → ")} MB | flat |`,
  );
  report.print(
    "\nThe first model call is the supervisor's, timed where the scripted model receives it: the path is the receiver's verification and claim in MongoDB, its A2A call, and the supervisor's turn up to its model request. RSS is read from /proc for each replica's process.",
  );
  report.save();
} finally {
  await Promise.all(replicas.map((replica) => replica.kill("SIGTERM")));
  await fleet.stop();
  await llm.close();
  await mongo?.stop();
}
