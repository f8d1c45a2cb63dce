import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { fleetFixture, repoRoot } from "../test/fixture.js";
import { CHART_VALUES, checkChart } from "./chart.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A fleet fixture with this repository's chart values, changed by `change`. */
function fixtureWithValues(change: (values: ReturnType<typeof parseDocument>) => void = () => {}) {
  const fixture = fleetFixture();
  cleanups.push(fixture.cleanup);
  const values = parseDocument(readFileSync(join(repoRoot, CHART_VALUES), "utf8"));
  change(values);
  fixture.edit(CHART_VALUES, () => values.toString());
  return fixture;
}

describe("the Helm chart's values", () => {
  it("have an entry on its port for every agent package of this repository", () => {
    expect(checkChart(repoRoot)).toEqual([]);
  });

  it("must register a new agent package, on its port", () => {
    const fixture = fixtureWithValues();
    fixture.edit("agents/status-page/package.json", () =>
      JSON.stringify({ name: "@switchboard/agent-status-page", switchboard: { port: 8020 } }),
    );
    expect(checkChart(fixture.root)).toEqual([
      expect.stringMatching(/no agents\.status-page entry for agents\/status-page .*port: 8020/),
    ]);
  });

  it("must give an agent the port its package declares", () => {
    const fixture = fixtureWithValues((values) => values.setIn(["agents", "jira", "port"], 8007));
    expect(checkChart(fixture.root)).toEqual([
      expect.stringContaining("agents.jira.port is 8007, but agents/jira declares port 8006"),
    ]);
  });

  it("must not keep an entry for an agent package that is gone", () => {
    const fixture = fixtureWithValues((values) =>
      values.setIn(["agents", "gone"], values.createNode({ enabled: true, port: 8020 })),
    );
    expect(checkChart(fixture.root)).toEqual([
      expect.stringContaining("agents.gone names no agent package under agents/"),
    ]);
  });

  it("set only variables .env.example documents", () => {
    const fixture = fixtureWithValues((values) => {
      values.setIn(["config", "LOG_LEVL"], "debug");
      values.setIn(["agents", "jira", "secretKeys"], values.createNode(["JIRA_TOKN"]));
      values.setIn(["web", "env", "OIDC_AUDIENCE"], "");
    });
    expect(checkChart(fixture.root)).toEqual([
      expect.stringContaining("config.LOG_LEVL sets LOG_LEVL"),
      expect.stringContaining("agents.jira.secretKeys sets JIRA_TOKN"),
      expect.stringContaining("web.env.OIDC_AUDIENCE sets OIDC_AUDIENCE"),
    ]);
  });

  it("must have the web chat on the contract's web UI port", () => {
    const moved = fixtureWithValues((values) => values.setIn(["web", "port"], 8080));
    expect(checkChart(moved.root)).toEqual([
      expect.stringContaining("web.port is 8080, but the web chat's contract port is 3000"),
    ]);
    const gone = fixtureWithValues((values) => values.delete("web"));
    expect(checkChart(gone.root)).toEqual([expect.stringContaining("no web entry for the web chat")]);
  });

  it("must configure the host of configured agents under its own key, on its port", () => {
    const moved = fixtureWithValues((values) => {
      values.setIn(["agents", "dynamic-agents"], values.createNode({ enabled: true, port: 8100 }));
      values.delete("dynamicAgents");
    });
    expect(checkChart(moved.root)).toEqual([
      expect.stringMatching(/no dynamicAgents entry for agents\/dynamic-agents .*port: 8100/),
      expect.stringContaining(
        "agents.dynamic-agents: agents/dynamic-agents is a host of configured agents, not one agent; configure it under dynamicAgents.",
      ),
    ]);
    const offPort = fixtureWithValues((values) => values.setIn(["dynamicAgents", "port"], 8001));
    expect(checkChart(offPort.root)).toEqual([
      expect.stringContaining("dynamicAgents.port is 8001, but agents/dynamic-agents declares port 8100"),
    ]);
  });

  it("are required", () => {
    const fixture = fleetFixture();
    cleanups.push(fixture.cleanup);
    rmSync(join(fixture.root, CHART_VALUES));
    expect(checkChart(fixture.root)).toEqual([expect.stringContaining(`${CHART_VALUES} is missing`)]);
  });
});
