import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { agentNameFromPackage } from "./names.js";
import { CONTRACT_PORTS } from "./ports.js";

/** Every agent package lives in its own folder here (docs/CONTRACT.md, "Agent packages"). */
export const AGENTS_FOLDER = "agents";

/** One agent package, as its package.json describes it. */
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
}

interface Manifest {
  name?: unknown;
  switchboard?: { port?: unknown };
}

/** Reads the package in `dir`; throws a message naming the file when its port cannot stand. */
export function readAgentPackage(dir: string): AgentPackage {
  const file = join(dir, "package.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
  const packageName = typeof manifest.name === "string" ? manifest.name : "";
  const name = agentNameFromPackage(packageName);
  const declared = manifest.switchboard?.port;
  if (
    declared !== undefined &&
    !(Number.isInteger(declared) && Number(declared) > 0 && Number(declared) < 65536)
  ) {
    throw new Error(
      `${file}: "switchboard": { "port": ${JSON.stringify(declared)} } is not a TCP port (1-65535).`,
    );
  }
  const contract = CONTRACT_PORTS[name];
  if (declared !== undefined && contract !== undefined && declared !== contract) {
    throw new Error(
      `${file}: the ${name} agent's port is its contract port ${contract} (docs/CONTRACT.md), not ${declared}.`,
    );
  }
  const port = (declared as number | undefined) ?? contract;
  return { name, packageName, dir, folder: basename(dir), ...(port === undefined ? {} : { port }) };
}

/** The agent packages of a repository, by folder name. */
export function listAgentPackages(repoRoot: string): AgentPackage[] {
  const root = join(repoRoot, AGENTS_FOLDER);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .map((folder) => join(root, folder))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map(readAgentPackage);
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
