import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { benchReport, recordTable, replaceSection } from "./readme.js";

const README = "# A bench\n\nText.\n\n<!-- bench:rounds -->\nold table\n<!-- /bench:rounds -->\n\nAfter.\n";
const dir = mkdtempSync(join(tmpdir(), "bench-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a bench's README section", () => {
  it("is replaced between its markers, and the rest of the README kept", () => {
    expect(replaceSection(README, "rounds", "| a |\n|---|\n| 1 |\n")).toBe(
      "# A bench\n\nText.\n\n<!-- bench:rounds -->\n| a |\n|---|\n| 1 |\n<!-- /bench:rounds -->\n\nAfter.\n",
    );
  });

  it("names the markers to add when the README has none", () => {
    expect(() => replaceSection(README, "other", "x")).toThrow(
      'the README has no section "other": add a line <!-- bench:other --> and a line <!-- /bench:other -->',
    );
  });

  it("is written only with BENCH_WRITE_README=1, under the day, Node version and cores", () => {
    const file = join(dir, "README.md");
    writeFileSync(file, README);
    expect(recordTable(file, "rounds", "| a |", {})).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(README);
    expect(recordTable(file, "rounds", "| a |", { BENCH_WRITE_README: "1" })).toBe(true);
    expect(readFileSync(file, "utf8")).toMatch(
      /<!-- bench:rounds -->\n_Measured \d{4}-\d\d-\d\d on Node v[\d.]+, \d+ cores \(.+\), by .+\._\n\n\| a \|\n<!-- \/bench:rounds -->\n\nAfter\.\n$/,
    );
  });

  it("holds what a bench printed through its report, written by save()", () => {
    const file = join(dir, "REPORT.md");
    writeFileSync(file, README);
    const report = benchReport(file, "rounds", {
      BENCH_WRITE_README: "1",
      BENCH_SAMPLES: "3",
      npm_lifecycle_event: "bench:authz",
    });
    report.print("| a | b |");
    report.print("| 1 |", 2, "|");
    report.save();
    expect(readFileSync(file, "utf8")).toContain("by `BENCH_SAMPLES=3 pnpm bench:authz`._");
    expect(readFileSync(file, "utf8")).toMatch(/\._\n\n\| a \| b \|\n\| 1 \| 2 \|\n<!-- \/bench:rounds -->/);
  });
});
