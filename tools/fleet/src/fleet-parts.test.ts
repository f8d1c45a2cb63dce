import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverAgents } from "./discover.js";
import { formatLine } from "./log-lines.js";

describe("fleet discovery", () => {
  it("finds every startable agent package and tells the supervisor apart", () => {
    const root = mkdtempSync(join(tmpdir(), "fleet-"));
    const add = (dir: string, manifest: object) => {
      mkdirSync(join(root, "agents", dir), { recursive: true });
      writeFileSync(join(root, "agents", dir, "package.json"), JSON.stringify(manifest));
    };
    add("supervisor", { name: "@switchboard/supervisor", scripts: { start: "node dist/index.js" } });
    add("jira", { name: "@switchboard/agent-jira", scripts: { start: "node dist/index.js" } });
    add("my-tool", { name: "@switchboard/agent-my-tool", scripts: { start: "node dist/index.js" } });
    add("notes", { name: "@switchboard/agent-notes", scripts: {} });
    const { supervisor, agents } = discoverAgents(root);
    expect(supervisor?.packageName).toBe("@switchboard/supervisor");
    expect(agents.map((agent) => agent.name)).toEqual(["jira", "my-tool"]);
  });
});

describe("fleet log lines", () => {
  it("unpacks the runtime's JSON lines and keeps other output", () => {
    const line = JSON.stringify({
      level: 30,
      time: "2026-11-21T15:00:01.000Z",
      agent: "jira",
      port: 8006,
      msg: "jira agent ready",
    });
    expect(formatLine("jira", line, 10)).toBe("[jira]       15:00:01 info  jira agent ready port=8006");
    expect(formatLine("aws", "(node) warning", 10)).toBe("[aws]        (node) warning");
  });
});
