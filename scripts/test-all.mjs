#!/usr/bin/env node
// The whole suite: lint, typecheck, then every package's tests (turbo builds what they need).
// Ends with one plain "N passed, N failed" line summed over every package's vitest report.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const packageDirs = ["packages", "agents"].flatMap((group) => {
  const dir = join(root, group);
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
});
const reportOf = (dir) => join(dir, ".reports", "vitest.json");

function step(command, args) {
  const { status } = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  return status === 0;
}

for (const dir of packageDirs) rmSync(reportOf(dir), { force: true });

const lintOk = step("biome", ["check", "."]);
const suiteOk = step("turbo", ["run", "typecheck", "test", "--continue", ...process.argv.slice(2)]);

const totals = { passed: 0, failed: 0, skipped: 0 };
for (const dir of packageDirs) {
  if (!existsSync(reportOf(dir))) continue;
  const report = JSON.parse(readFileSync(reportOf(dir), "utf8"));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
if (!lintOk) console.log("lint failed: run `pnpm lint:fix`, then fix what it reports");
process.exit(lintOk && suiteOk && totals.failed === 0 ? 0 : 1);
