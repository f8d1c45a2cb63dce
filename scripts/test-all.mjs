#!/usr/bin/env node
// The whole suite: lint, typecheck, then every package's tests (turbo builds what they need).
// Ends with one plain "N passed, N failed" line summed over every package's vitest report.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

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

function step(command, args) {
  const { status } = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  return status === 0;
}

for (const dir of packageDirs) rmSync(reportOf(dir), { force: true });

const lintOk = step("biome", ["check", "."]);
// Integration tests start agents, MongoDB and Python servers; turbo's default of 10 tasks at once
// starves them on a small machine, so run two per core unless the caller says otherwise.
const args = process.argv.slice(2);
const concurrency = args.some((arg) => arg.startsWith("--concurrency"))
  ? []
  : [`--concurrency=${Math.max(2, availableParallelism() * 2)}`];
const suiteOk = step("turbo", ["run", "typecheck", "test", "--continue", ...concurrency, ...args]);

const totals = { passed: 0, failed: 0, skipped: 0 };
// A file can fail with no failed test (a beforeAll that throws or times out marks its tests skipped),
// so failures are listed per file too, with the reason: CI logs are often read from the tail.
const failures = [];
// Suites that skip for a reason name it (`… [skipped: reason]`, e.g. DocumentDB tests without
// ../shared/tools/documentdb), so the log says why those tests did not run.
const skipReasons = new Map();
for (const dir of packageDirs) {
  if (!existsSync(reportOf(dir))) continue;
  const report = JSON.parse(readFileSync(reportOf(dir), "utf8"));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  for (const file of report.testResults) {
    const where = relative(root, file.name);
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
for (const failure of failures) console.log(`\nFAILED ${firstLines(failure)}`);
for (const [reason, count] of skipReasons) console.log(`\nskipped ${count} tests: ${reason}`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (!lintOk) console.log("lint failed: run `pnpm lint:fix`, then fix what it reports");
process.exit(lintOk && suiteOk && failures.length === 0 ? 0 : 1);
