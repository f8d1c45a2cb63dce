import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSets } from "./sets.js";

const agentsDir = join(import.meta.dirname, "..", "..", "..", "agents");

/** Each agent's tool names, as its source declares them (`name: "<tool>"`), or its OpenAPI operations. */
function toolsOf(agent: string): Set<string> {
  const dir = join(agentsDir, agent);
  if (agent === "petstore") {
    const spec = JSON.parse(readFileSync(join(dir, "openapi.json"), "utf8")) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    return new Set(
      Object.values(spec.paths)
        .flatMap((path) => Object.values(path))
        .map((op) => op.operationId?.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase() ?? ""),
    );
  }
  const source = readdirSync(join(dir, "src"), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => readFileSync(join(dir, "src", file), "utf8"))
    .join("\n");
  return new Set([...source.matchAll(/name: "([a-z_0-9]+)"/g)].map((match) => match[1] as string));
}

describe("the shipped sets", () => {
  const sets = loadSets(["shipped"], {});
  const cases = sets.flatMap((set) => set.cases);
  const agents = readdirSync(agentsDir).filter((name) => name !== "supervisor" && name !== "dynamic-agents");

  it("hold at least 150 cases: a set for every agent and a routing set for the supervisor", () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(sets.map((set) => set.name).sort()).toEqual([...agents, "supervisor-routing"].sort());
  });

  it("name only agents the fleet has, and tools those agents offer", () => {
    const problems: string[] = [];
    for (const c of cases) {
      for (const agent of c.expect.agents?.alternatives.flat() ?? [])
        if (!agents.includes(agent)) problems.push(`${c.key}: no agent ${agent}`);
      const agent = c.expect.agents?.alternatives[0]?.[0];
      for (const call of c.expect.tools?.calls ?? [])
        if (agent && !toolsOf(call.agent ?? agent).has(call.name))
          problems.push(`${c.key}: ${agent} has no tool ${call.name}`);
    }
    expect(problems).toEqual([]);
  });
});
