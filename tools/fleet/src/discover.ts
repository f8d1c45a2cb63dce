import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { agentNameFromPackage } from "@switchboard/contract";

export interface AgentPackage {
  /** Agent name: `@switchboard/agent-jira` → `jira`. */
  name: string;
  packageName: string;
  dir: string;
}

/**
 * Every agent package under agents/ with a `start` script: adding an agent package is all it takes
 * for the local fleet to run it.
 */
export function discoverAgents(root: string): { supervisor?: AgentPackage; agents: AgentPackage[] } {
  const agentsDir = join(root, "agents");
  const found: AgentPackage[] = [];
  for (const entry of existsSync(agentsDir) ? readdirSync(agentsDir).sort() : []) {
    const manifest = join(agentsDir, entry, "package.json");
    if (!existsSync(manifest)) continue;
    const { name, scripts } = JSON.parse(readFileSync(manifest, "utf8")) as {
      name: string;
      scripts?: Record<string, string>;
    };
    if (!scripts?.start) continue;
    found.push({ name: agentNameFromPackage(name), packageName: name, dir: join(agentsDir, entry) });
  }
  return {
    supervisor: found.find((agent) => agent.name === "supervisor"),
    agents: found.filter((agent) => agent.name !== "supervisor"),
  };
}
