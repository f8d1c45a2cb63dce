import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One package under agents/: what the fleet files must line up with. */
export interface AgentPackage {
  /** Folder under agents/, also the Dockerfile's AGENT build argument. */
  folder: string;
  /** npm name, e.g. @switchboard/agent-jira. */
  packageName: string;
  /** Agent name per DESIGN.md: the package name without scope and leading `agent-`. */
  name: string;
  /** `defaultPort` from its src/agent.ts, when it declares one. */
  defaultPort?: number;
}

interface PackageJson {
  name?: string;
  dependencies?: Record<string, string>;
}

export function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
}

/** DESIGN.md's naming rule: `@switchboard/agent-jira` → `jira`, `@switchboard/supervisor` → `supervisor`. */
export function agentNameOf(packageName: string): string {
  return packageName.replace(/^@[^/]+\//, "").replace(/^agent-/, "");
}

/** The supervisor is an agent package too, but the one that calls the others. */
export const SUPERVISOR = "supervisor";

export function listAgentPackages(repoRoot: string): AgentPackage[] {
  const agentsDir = join(repoRoot, "agents");
  if (!existsSync(agentsDir)) return [];
  return readdirSync(agentsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(agentsDir, entry.name, "package.json")))
    .map((entry) => {
      const dir = join(agentsDir, entry.name);
      const packageName = readPackageJson(dir).name ?? "";
      const agentSource = join(dir, "src", "agent.ts");
      const port = existsSync(agentSource)
        ? /\bdefaultPort:\s*(\d+)/.exec(readFileSync(agentSource, "utf8"))?.[1]
        : undefined;
      return {
        folder: entry.name,
        packageName,
        name: agentNameOf(packageName),
        ...(port ? { defaultPort: Number(port) } : {}),
      };
    })
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

/** The tools people run next to the fleet (`npm start`, `pnpm chat`): their settings are documented too. */
const USER_TOOLS = ["@switchboard/fleet", "@switchboard/cli"];

/**
 * The folders of every workspace package an agent runs with: each agents/* package and, through
 * `dependencies` (not devDependencies), the workspace packages it ships with; plus the user tools.
 * Test servers and tooling stay out, so their variables are not the fleet's.
 */
export function runtimePackageDirs(repoRoot: string): string[] {
  const byName = new Map<string, string>();
  for (const group of ["packages", "agents", "tooling"]) {
    const groupDir = join(repoRoot, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true })) {
      const dir = join(groupDir, entry.name);
      if (!entry.isDirectory() || !existsSync(join(dir, "package.json"))) continue;
      const name = readPackageJson(dir).name;
      if (name) byName.set(name, dir);
    }
  }
  const seen = new Set<string>();
  const visit = (dir: string) => {
    if (seen.has(dir)) return;
    seen.add(dir);
    for (const [dep, range] of Object.entries(readPackageJson(dir).dependencies ?? {})) {
      const depDir = byName.get(dep);
      if (range.startsWith("workspace:") && depDir) visit(depDir);
    }
  };
  for (const agent of listAgentPackages(repoRoot)) visit(join(repoRoot, "agents", agent.folder));
  for (const tool of USER_TOOLS) {
    const dir = byName.get(tool);
    if (dir) visit(dir);
  }
  return [...seen].sort();
}
