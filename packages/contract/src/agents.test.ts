import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "@switchboard/vitest-config/scratch";
import { describe, expect, it } from "vitest";
import {
  listAgentPackages,
  listFleetPackages,
  listHostPackages,
  packageDirOwning,
  readAgentPackage,
} from "./agents.js";

function repoWith(packages: Record<string, object>): string {
  const root = scratchDir("contract-agents");
  for (const [folder, manifest] of Object.entries(packages)) {
    mkdirSync(join(root, "agents", folder, "src"), { recursive: true });
    writeFileSync(join(root, "agents", folder, "package.json"), JSON.stringify(manifest));
  }
  return root;
}

describe("agent packages", () => {
  it("lists every package under agents/ with its name and the port its package.json declares", () => {
    const root = repoWith({
      supervisor: { name: "@switchboard/supervisor", switchboard: { port: 8000 } },
      jira: { name: "@switchboard/agent-jira" },
      "my-tool": { name: "@switchboard/agent-my-tool", switchboard: { port: 8017 } },
      scratch: { name: "@switchboard/agent-scratch" },
    });
    mkdirSync(join(root, "agents", "not-a-package"));
    expect(listAgentPackages(root).map(({ name, folder, port }) => ({ name, folder, port }))).toEqual([
      { name: "jira", folder: "jira", port: 8006 },
      { name: "my-tool", folder: "my-tool", port: 8017 },
      { name: "scratch", folder: "scratch", port: undefined },
      { name: "supervisor", folder: "supervisor", port: 8000 },
    ]);
  });

  it("refuses a port that is not its contract port or not a port, naming the file", () => {
    const root = repoWith({
      jira: { name: "@switchboard/agent-jira", switchboard: { port: 9000 } },
      odd: { name: "@switchboard/agent-odd", switchboard: { port: "8017" } },
    });
    expect(() => readAgentPackage(join(root, "agents", "jira"))).toThrow(
      /agents\/jira\/package.json: the jira agent's port is its contract port 8006 \(docs\/CONTRACT.md\), not 9000/,
    );
    expect(() => readAgentPackage(join(root, "agents", "odd"))).toThrow(/"port": "8017" } is not a TCP port/);
  });

  it("tells a host of configured agents from an agent, and lists each where it belongs", () => {
    const root = repoWith({
      "dynamic-agents": {
        name: "@switchboard/dynamic-agents",
        switchboard: { port: 8100, kind: "host" },
      },
      jira: { name: "@switchboard/agent-jira", switchboard: { kind: "agent" } },
      supervisor: { name: "@switchboard/supervisor", switchboard: { port: 8000 } },
    });
    const summary = ({ name, kind, port }: { name: string; kind: string; port?: number }) => ({
      name,
      kind,
      port,
    });
    expect(listFleetPackages(root).map(summary)).toEqual([
      { name: "dynamic-agents", kind: "host", port: 8100 },
      { name: "jira", kind: "agent", port: 8006 },
      { name: "supervisor", kind: "agent", port: 8000 },
    ]);
    expect(listAgentPackages(root).map(({ name }) => name)).toEqual(["jira", "supervisor"]);
    expect(listHostPackages(root).map(({ name }) => name)).toEqual(["dynamic-agents"]);
  });

  it("refuses an unknown kind, and a host off its port, naming the file", () => {
    const root = repoWith({
      "dynamic-agents": {
        name: "@switchboard/dynamic-agents",
        switchboard: { port: 8001, kind: "host" },
      },
      odd: { name: "@switchboard/agent-odd", switchboard: { port: 8017, kind: "hosts" } },
    });
    expect(() => readAgentPackage(join(root, "agents", "dynamic-agents"))).toThrow(
      /agents\/dynamic-agents\/package.json: the dynamic-agents host's port is its contract port 8100 \(docs\/CONTRACT.md\), not 8001/,
    );
    expect(() => readAgentPackage(join(root, "agents", "odd"))).toThrow(
      /agents\/odd\/package.json: "switchboard": \{ "kind": "hosts" \} is neither "agent" .* nor "host"/,
    );
  });

  it("finds the package a script belongs to, but not one run from node_modules", () => {
    const root = repoWith({ jira: { name: "@switchboard/agent-jira" } });
    expect(packageDirOwning(join(root, "agents", "jira", "src", "index.ts"))).toBe(
      join(root, "agents", "jira"),
    );
    expect(packageDirOwning(join(root, "node_modules", "vitest", "worker.js"))).toBeUndefined();
  });
});
