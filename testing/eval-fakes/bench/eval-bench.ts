import { availableParallelism, cpus } from "node:os";
import { join } from "node:path";
import { envPrefixFor, listFleetPackages, SUPERVISOR } from "@switchboard/contract";
import { type ConfigResult, evaluate, loadSets, openTarget } from "@switchboard/eval";
import { benchReport } from "@switchboard-testing/benches";
import { freePort } from "@switchboard-testing/test-agents";
import { startScriptedLlm } from "@switchboard-testing/test-llm";
import { FAKED_VENDORS, startCaseFakes } from "../src/index.js";
import { startNoVendor } from "./no-vendor.js";
import { playCases } from "./play-cases.js";

/**
 * pnpm bench:eval: the shipped sets on the fleet npm start runs (its vendors on the fakes), over a
 * scripted model that plays each case with a real model's latency (BENCH_MODEL_LATENCY_MS, default
 * 800 ms to each answer), at several concurrencies (BENCH_CONCURRENCY, default 1,4,8): wall time, the
 * time and cost of a case, and how many cases run at once before the machine is the limit.
 * BENCH_CASES limits the cases (default all).
 */
const root = join(import.meta.dirname, "..", "..", "..");
const latencyMs = Number(process.env.BENCH_MODEL_LATENCY_MS ?? 800);
const levels = (process.env.BENCH_CONCURRENCY ?? "1,4,8").split(",").map(Number);
const limit = Number(process.env.BENCH_CASES ?? Number.POSITIVE_INFINITY);

const cases = loadSets(["shipped"], {})
  .flatMap((set) => set.cases)
  .slice(0, limit);
const [llm, fakes, noVendor] = await Promise.all([
  startScriptedLlm({ script: playCases(cases), latencyMs }),
  startCaseFakes(),
  startNoVendor(FAKED_VENDORS),
]);
// AWS's moto answers from its default (empty) account: no case is seeded at several at once.
fakes.warm("aws");
const ports: Record<string, string> = {
  SUPERVISOR_PORT: String(await freePort()),
  WEB_PORT: String(await freePort()),
};
for (const agent of listFleetPackages(root))
  if (agent.name !== SUPERVISOR) ports[`${envPrefixFor(agent.name)}_AGENT_PORT`] = String(await freePort());
const started = performance.now();
const target = await openTarget({
  name: "bench",
  root,
  env: { PATH: process.env.PATH, LOG_LEVEL: "error", ...noVendor.env, ...llm.env, ...fakes.env, ...ports },
});
const startMs = performance.now() - started;

const report = benchReport(new URL("./README.md", import.meta.url), "results");
const absent = (target.failed ?? []).map((agent) => agent.name);
for (const agent of target.failed ?? [])
  console.error(
    `${agent.name} did not start: ${agent.error
      .split("\n")
      .filter((line) => /Error|error|must|set /.test(line))
      .slice(0, 2)
      .join(" ")}`,
  );
report.print(
  `${cases.length} cases of the shipped sets, one run each, model latency ${latencyMs} ms a call; ${availableParallelism()} cores (${cpus()[0]?.model ?? "?"}); the fleet started in ${(startMs / 1000).toFixed(1)} s${absent.length ? `; not started: ${absent.join(", ")}` : ""}`,
);
report.print("");
report.print(
  "| cases at once | wall time | per case p50 / p95 | model calls / case | tokens / case | cases / min |",
);
report.print("|---|---|---|---|---|---|");
const results: ConfigResult[] = [];
try {
  for (const concurrency of levels) {
    const result = await evaluate(`x${concurrency}`, cases, target, { runs: 1, concurrency });
    results.push(result);
    const s = result.summary;
    report.print(
      `| ${concurrency} | ${(s.wallMs / 1000).toFixed(1)} s | ${(s.latencyP50Ms / 1000).toFixed(2)} s / ${(s.latencyP95Ms / 1000).toFixed(2)} s | ${s.modelCallsPerRun?.toFixed(1) ?? "–"} | ${s.tokensPerRun?.toFixed(0) ?? "–"} | ${((cases.length / s.wallMs) * 60_000).toFixed(0)} |`,
    );
  }
} finally {
  await target.close();
  await Promise.all([llm.close(), fakes.close(), noVendor.close()]);
}
const full = loadSets(["shipped"], {}).flatMap((set) => set.cases).length;
const best = results.reduce((a, b) => (a.summary.wallMs <= b.summary.wallMs ? a : b));
report.print("");
report.print(
  `Full shipped set (${full} cases) at ${best.name.slice(1)} at once: ≈ ${(((best.summary.wallMs / cases.length) * full) / 60_000).toFixed(1)} min (target < 10 min).`,
);
report.save();
