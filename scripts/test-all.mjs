#!/usr/bin/env node
// The whole suite: the unit run, lint, typecheck, then every package's integration tests (turbo
// builds what they need). Ends with the ten slowest test files and one plain "N passed, N failed"
// line summed over the unit run's and every package's vitest report.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { INTEGRATION_ONLY_ENV } from "@switchboard/vitest-config";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Every workspace package, as pnpm lists them (pnpm-workspace.yaml is the one list).
const listed = spawnSync("pnpm", ["ls", "--recursive", "--depth", "-1", "--json"], {
  cwd: root,
  encoding: "utf8",
});
if (listed.status !== 0) throw new Error(`pnpm ls failed: ${listed.stderr}`);
const packageDirs = JSON.parse(listed.stdout)
  .map((workspacePackage) => workspacePackage.path)
  .filter((dir) => dir !== root);
const reportOf = (dir) => join(dir, ".reports", "vitest.json");
// The unit run's report (tooling/vitest-config/unit.js) is the root's; the packages' follow it.
const reportDirs = [root, ...packageDirs];

function step(command, args, env = {}) {
  const { status } = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...env },
  });
  return status === 0;
}

for (const dir of reportDirs) rmSync(reportOf(dir), { force: true });

// The unit run is the quick check before a commit: it fails the suite when red, and when it takes
// longer than this, timed here (the run alone, before anything else starts), so it stays quick.
const UNIT_BUDGET_SECONDS = 60;
const unitStart = performance.now();
const unitGreen = step("pnpm", ["test:unit"]);
const unitSeconds = Math.round((performance.now() - unitStart) / 1000);
const unitProblem = !unitGreen
  ? "the unit run (`pnpm test:unit`) failed: see its output at the top"
  : unitSeconds > UNIT_BUDGET_SECONDS
    ? `the unit run (\`pnpm test:unit\`) took ${unitSeconds} s, over its ${UNIT_BUDGET_SECONDS} s budget: find the slow files in its output`
    : undefined;

const lintOk = step("biome", ["check", "."]);
// Integration tests start agents, MongoDB and Python servers; turbo's default of 10 tasks at once
// starves them on a small machine, so run two per core unless the caller says otherwise.
const args = process.argv.slice(2);
const concurrency = args.some((arg) => arg.startsWith("--concurrency"))
  ? []
  : [`--concurrency=${Math.max(2, availableParallelism() * 2)}`];
// The unit run above ran every package's unit tests, so each package runs its integration tests
// alone (INTEGRATION_ONLY_ENV): every test still runs once, and no package imports everything again
// for unit tests that already passed.
// Node's compile cache (V8's code cache on disk) for every process of the run that does not set its
// own (tsc does): vitest's workers, and the agents the tests start, compile the same modules again
// and again; with it, some 10% less CPU. Node checks each entry and recompiles what does not match.
const suiteOk = step("turbo", ["run", "typecheck", "test", "--continue", ...concurrency, ...args], {
  [INTEGRATION_ONLY_ENV]: "1",
  NODE_COMPILE_CACHE:
    process.env.NODE_COMPILE_CACHE ?? join(root, "node_modules", ".cache", "node-compile-cache"),
});

const totals = { passed: 0, failed: 0, skipped: 0 };
// A file can fail with no failed test (a beforeAll that throws or times out marks its tests skipped),
// so failures are listed per file too, with the reason: CI logs are often read from the tail.
const failures = [];
// Suites that skip for a reason name it (`… [skipped: reason]`, e.g. DocumentDB tests without
// ../shared/tools/documentdb), so the log says why those tests did not run.
const skipReasons = new Map();
// How long each test file ran, for the slowest ones at the end: where the suite's time goes.
const fileTimes = [];
for (const dir of reportDirs) {
  if (!existsSync(reportOf(dir))) continue;
  const report = JSON.parse(readFileSync(reportOf(dir), "utf8"));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  for (const file of report.testResults) {
    const where = relative(root, file.name);
    fileTimes.push({ where, seconds: (file.endTime - file.startTime) / 1000 });
    if (file.status === "failed" && file.message) failures.push(`${where}: ${file.message}`);
    for (const test of file.assertionResults) {
      const reason = test.ancestorTitles.map((title) => /\[skipped: (.+)\]$/.exec(title)?.[1]).find(Boolean);
      if (reason && test.status !== "passed" && test.status !== "failed") {
        skipReasons.set(reason, (skipReasons.get(reason) ?? 0) + 1);
      }
      if (test.status !== "failed") continue;
      failures.push(`${where} > ${test.fullName}: ${test.failureMessages.join("\n")}`);
    }
  }
}
const firstLines = (text) => text.split("\n").slice(0, 12).join("\n    ");
console.log("\nslowest test files:");
for (const { seconds, where } of fileTimes.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
  console.log(`${seconds.toFixed(1).padStart(8)} s  ${where}`);
}
for (const failure of failures) console.log(`\nFAILED ${firstLines(failure)}`);
for (const [reason, count] of skipReasons) console.log(`\nskipped ${count} tests: ${reason}`);
console.log(`\nunit run: ${unitGreen ? "green" : "red"}, ${unitSeconds} s (budget ${UNIT_BUDGET_SECONDS} s)`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (unitProblem) console.log(`FAILED ${unitProblem}`);
if (!lintOk) console.log("lint failed: run `pnpm lint:fix`, then fix what it reports");
process.exit(!unitProblem && lintOk && suiteOk && failures.length === 0 ? 0 : 1);
