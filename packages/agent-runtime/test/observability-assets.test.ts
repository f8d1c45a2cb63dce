import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkpointMetrics } from "@switchboard/utils";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
// The delegating agents' hop metrics are theirs; their definitions are plain data, read here by path.
import { HOP_DURATION, HOP_ERRORS } from "../../delegation/src/hop-metrics.js";
import { createMetrics } from "../src/telemetry/metrics.js";

const docs = join(import.meta.dirname, "..", "..", "..", "docs", "observability");

/** Every metric the fleet exports: the runtime's (each agent's) and the supervisor's hop metrics. */
const fleet = createMetrics(checkpointMetrics());
fleet.agentMetrics.histogram(HOP_DURATION);
fleet.agentMetrics.counter(HOP_ERRORS);
const metricsRegistry = fleet.registry;

/** Labels Prometheus adds to every scraped series, and the bucket bound of histograms. */
const TARGET_LABELS = new Set(["job", "instance", "le"]);

function dashboardExprs(): string[] {
  const dashboard = JSON.parse(readFileSync(join(docs, "grafana-dashboard.json"), "utf8")) as {
    panels: Array<{ targets: Array<{ expr: string }> }>;
  };
  return dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
}

function alertExprs(): string[] {
  const rules = parse(readFileSync(join(docs, "prometheus-alerts.yaml"), "utf8")) as {
    groups: Array<{ rules: Array<{ expr: string }> }>;
  };
  return rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr));
}

/** The metric a series name belongs to: histogram series drop their _bucket, _count or _sum. */
function metricOf(series: string) {
  return (
    metricsRegistry.getSingleMetric(series) ??
    metricsRegistry.getSingleMetric(series.replace(/_(bucket|count|sum)$/, ""))
  );
}

function labelNamesOf(series: string): string[] {
  return [...((metricOf(series) as unknown as { labelNames?: string[] })?.labelNames ?? [])];
}

describe.each([
  ["the Grafana dashboard", dashboardExprs],
  ["the Prometheus alert rules", alertExprs],
])("%s", (_name, exprs) => {
  it("uses only metrics the agents export, with labels they have", () => {
    expect(exprs().length).toBeGreaterThan(0);
    for (const expr of exprs()) {
      const series = expr.match(/switchboard_[a-z0-9_]+/g) ?? [];
      for (const name of series) expect(metricOf(name), `${name} in ${expr}`).toBeDefined();
      const known = new Set([...TARGET_LABELS, ...series.flatMap(labelNamesOf)]);
      const used = [...expr.matchAll(/by \(([^)]*)\)|([a-z_]+)(?:=~|!=|=)"/g)].flatMap((match) =>
        (match[1] ?? match[2] ?? "").split(",").map((label) => label.trim()),
      );
      for (const label of used) expect(known, `label ${label} in ${expr}`).toContain(label);
    }
  });
});

describe("the alert rules", () => {
  it("cover slow checkpoint reads, checkpoint errors and an unreachable subagent", () => {
    const all = alertExprs().join("\n");
    expect(all).toMatch(
      /histogram_quantile\(0\.95,[\s\S]*switchboard_checkpoint_read_duration_seconds_bucket[\s\S]*> 0\.1/,
    );
    expect(all).toContain("switchboard_checkpoint_errors_total");
    expect(all).toContain("switchboard_subagent_hop_errors_total");
  });
});
