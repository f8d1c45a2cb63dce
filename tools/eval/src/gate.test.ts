import { describe, expect, it } from "vitest";
import type { CaseResult, ConfigResult } from "./evaluate.js";
import { gate } from "./gate.js";
import { renderHtml } from "./report/html.js";
import { renderMarkdown } from "./report/markdown.js";
import { reportModel } from "./report/rows.js";
import type { RunScore } from "./score/score-run.js";
import { spread, wilson } from "./score/stats.js";

const run = (pass: boolean, traceId = "0af7651916cd43dd8448eb211c80319c"): RunScore => ({
  pass,
  checks: pass ? [] : [{ check: "routing", pass: false, detail: "asked github; expected the jira agent" }],
  observation: {
    agents: [],
    tools: [],
    answer: "",
    state: "completed",
    latencyMs: 1200,
    traceId,
    source: "events",
  },
});

const config = (name: string, passes: boolean[][]): ConfigResult => ({
  name,
  cases: passes.map(
    (runs, i): CaseResult => ({
      key: `s/c${i}`,
      id: `c${i}`,
      set: "s",
      origin: "s.yaml",
      request: `<b>request ${i}</b>`,
      runs: runs.map((p) => run(p)),
      passRate: runs.filter(Boolean).length / runs.length,
      latencyMs: spread([1200]),
    }),
  ),
  summary: {
    cases: passes.length,
    runsPerCase: 2,
    passRate: spread([1, 0.5]),
    overall: { passes: 3, total: 4, rate: 0.75, ...wilson(3, 4) },
    latencyP50Ms: 1200,
    latencyP95Ms: 1200,
    wallMs: 5000,
  },
});

describe("the CI gate", () => {
  const before = config("main", [
    [true, true],
    [true, true],
    [true, false],
    [true, true],
    [true, true],
  ]); // 9/10
  it("fails a candidate whose pass rate drops by more than the margin, and says by how much", () => {
    const after = config("pr", [
      [true, true],
      [false, false],
      [true, false],
      [true, true],
      [true, true],
    ]); // 7/10
    const result = gate(before, after, 0.1);
    expect(result.pass).toBe(false);
    expect(result.reason).toMatch(
      /pr passes 70\.0% .* main 90\.0%: a drop of 20\.0%, more than the 10\.0% allowed/,
    );
  });
  it("passes one within the margin (exactly at it too) and one that improves", () => {
    const same = config("pr", [
      [true, true],
      [true, true],
      [false, false],
      [true, true],
      [true, true],
    ]); // 8/10
    expect(gate(before, same, 0.1).pass).toBe(true);
    expect(gate(same, before, 0).pass).toBe(true);
  });
  it("compares only the cases both ran", () => {
    const fewer = config("pr", [[true, true]]);
    expect(gate(before, fewer, 0).reason).toMatch(/of 1 cases/);
  });
});

describe("the report", () => {
  const results = [config("A", [[true, false]]), config("B", [[true, true]])];
  it("links each run to its trace through EVAL_TRACE_URL, in Markdown and HTML", () => {
    const model = reportModel(results, { traceUrl: "https://langfuse.example/trace/{trace_id}" });
    const md = renderMarkdown(model);
    expect(md).toContain("[A 1](https://langfuse.example/trace/0af7651916cd43dd8448eb211c80319c)");
    expect(md).toContain("A: routing: asked github; expected the jira agent");
    const html = renderHtml(model);
    expect(html).toContain(
      '<a href="https://langfuse.example/trace/0af7651916cd43dd8448eb211c80319c">A 1</a>',
    );
  });
  it("links each configuration's runs through its own trace URL when it has one", () => {
    const md = renderMarkdown(
      reportModel(results, {
        traceUrl: "https://jaeger.example/trace/{trace_id}",
        traceUrls: [undefined, "https://langfuse.example/trace/{trace_id}"],
      }),
    );
    expect(md).toContain("[A 1](https://jaeger.example/trace/");
    expect(md).toContain("[B 1](https://langfuse.example/trace/");
  });
  it("escapes what a case or a model wrote: no markup from a set reaches the page", () => {
    const html = renderHtml(reportModel(results, {}));
    expect(html).not.toContain("<b>request 0</b>");
    expect(html).toContain("&lt;b&gt;request 0&lt;/b&gt;");
    expect(renderHtml(reportModel(results, { traceUrl: "javascript:alert(1)//{trace_id}" }))).not.toContain(
      "javascript:",
    );
  });
});
