import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { AGENT_PACKAGE_KINDS, type AgentPackageKind } from "./kinds.js";
import { agentNameFromPackage } from "./names.js";
import { CONTRACT_PORTS, HOST_PORTS } from "./ports.js";

/** Every agent package lives in its own folder here (docs/CONTRACT.md, "Agent packages"). */
export const AGENTS_FOLDER = "agents";

/** One package under agents/, as its package.json describes it. */
export interface AgentPackage {
  /** Agent name per the contract: `@switchboard/agent-jira` → `jira`. */
  name: string;
  /** npm name, e.g. `@switchboard/agent-jira`. */
  packageName: string;
  dir: string;
  /** Its folder's name under agents/ (the Dockerfile's AGENT build argument). */
  folder: string;
  /**
   * Where it listens unless PORT says otherwise: what its package.json declares
   * (`"switchboard": { "port": 8006 }`), which for a contract name must be its contract port; else
   * its contract port; undefined when it has neither.
   */
  port?: number;
  kind: AgentPackageKind;
}

interface Manifest {
  name?: unknown;
  switchboard?: { port?: unknown; kind?: unknown };
}

/** Reads the package in `dir`; throws a message naming the file when its port or kind cannot stand. */
export function readAgentPackage(dir: string): AgentPackage {
  const file = join(dir, "package.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
  const packageName = typeof manifest.name === "string" ? manifest.name : "";
  const name = agentNameFromPackage(packageName);
  const kind = manifest.switchboard?.kind ?? "agent";
  if (!AGENT_PACKAGE_KINDS.includes(kind as AgentPackageKind)) {
    throw new Error(
      `${file}: "switchboard": { "kind": ${JSON.stringify(kind)} } is neither "agent" (one agent, the default) nor "host" (agents made from configuration).`,
    );
  }
  const declared = manifest.switchboard?.port;
  if (
    declared !== undefined &&
    !(Number.isInteger(declared) && Number(declared) > 0 && Number(declared) < 65536)
  ) {
    throw new Error(
      `${file}: "switchboard": { "port": ${JSON.stringify(declared)} } is not a TCP port (1-65535).`,
    );
  }
  const contract = (kind === "host" ? HOST_PORTS : CONTRACT_PORTS)[name];
  if (declared !== undefined && contract !== undefined && declared !== contract) {
    throw new Error(
      `${file}: the ${name} ${kind}'s port is its contract port ${contract} (docs/CONTRACT.md), not ${declared}.`,
    );
  }
  const port = (declared as number | undefined) ?? contract;
  return {
    name,
    packageName,
    dir,
    folder: basename(dir),
    ...(port === undefined ? {} : { port }),
    kind: kind as AgentPackageKind,
  };
}

/**
 * Every package under agents/ the fleet deploys, agents and hosts alike, by folder name: what gets a
 * compose service, a chart component, an image and a place in `npm start`.
 */
export function listFleetPackages(repoRoot: string): AgentPackage[] {
  const root = join(repoRoot, AGENTS_FOLDER);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .map((folder) => join(root, folder))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map(readAgentPackage);
}

/**
 * The agent packages (kind `agent`), by folder name: each one agent, with its `src/agent.ts`, its own
 * collections and its `ENABLE_<AGENT>` wiring. A host of configured agents is not among them
 * (listHostPackages).
 */
export function listAgentPackages(repoRoot: string): AgentPackage[] {
  return listFleetPackages(repoRoot).filter((candidate) => candidate.kind === "agent");
}

/** The hosts of agents made from configuration (kind `host`), by folder name. */
export function listHostPackages(repoRoot: string): AgentPackage[] {
  return listFleetPackages(repoRoot).filter((candidate) => candidate.kind === "host");
}

/**
 * The package a script belongs to: the nearest package.json above it, or undefined for a script
 * run from node_modules (a test runner's worker, a package's bin).
 */
export function packageDirOwning(file: string): string | undefined {
  let dir = dirname(realpathOrSelf(resolve(file)));
  if (dir.split(sep).includes("node_modules")) return undefined;
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
