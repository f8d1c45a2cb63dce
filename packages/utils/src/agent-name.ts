import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agentNameFromPackage, packageDirOwning } from "@switchboard/contract";
import { SwitchboardError } from "./errors.js";

/** Where a detected agent name came from, for log lines and error messages. */
export type AgentNameSource = "AGENT_NAME" | "entry script" | "npm_package_name";

export interface DetectedAgentName {
  name: string;
  source: AgentNameSource;
  /** The package name it was derived from (absent for AGENT_NAME). */
  packageName?: string;
}

export interface DetectOptions {
  env?: NodeJS.ProcessEnv;
  /** The process's entry script; defaults to process.argv[1]. */
  entryScript?: string | undefined;
}

// The longest collection name built from it, `checkpoint_writes_<agent>`, stays well inside
// MongoDB's namespace limit, and the name is safe in env var names and URLs.
const VALID_AGENT_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Throws a clear error for a name that would make an invalid or unsafe collection name. */
export function assertValidAgentName(
  name: string,
  source: string,
  fix = "set AGENT_NAME to override",
): string {
  if (!VALID_AGENT_NAME.test(name)) {
    throw new SwitchboardError(
      "agent-name.invalid",
      "user",
      `Agent name ${JSON.stringify(name)} (from ${source}) cannot name MongoDB collections: use 1-63 lowercase ` +
        `letters, digits, '-' or '_', starting with a letter or digit (${fix}).`,
    );
  }
  return name;
}

/**
 * The running agent's name: AGENT_NAME if set; else the package owning the entry script (walking up
 * to the nearest package.json outside node_modules); else npm_package_name from a package script.
 */
export function detectAgentName(options: DetectOptions = {}): DetectedAgentName {
  const env = options.env ?? process.env;
  const override = env.AGENT_NAME?.trim();
  if (override) return { name: assertValidAgentName(override, "AGENT_NAME"), source: "AGENT_NAME" };

  const entry = "entryScript" in options ? options.entryScript : process.argv[1];
  const fromEntry = entry ? packageNameOwning(entry) : undefined;
  if (fromEntry) return fromPackage(fromEntry, "entry script");

  const fromScript = env.npm_package_name?.trim();
  if (fromScript) return fromPackage(fromScript, "npm_package_name");

  throw new SwitchboardError(
    "agent-name.undetected",
    "user",
    "Cannot tell which agent is running: start it from its package (e.g. `pnpm --filter " +
      "@switchboard/agent-jira start`) or set AGENT_NAME.",
  );
}

function fromPackage(packageName: string, source: AgentNameSource): DetectedAgentName {
  const name = assertValidAgentName(agentNameFromPackage(packageName), `${source} package ${packageName}`);
  return { name, source, packageName };
}

/** The `name` of the package a script belongs to (see packageDirOwning). */
function packageNameOwning(file: string): string | undefined {
  const dir = packageDirOwning(file);
  if (!dir) return undefined;
  const { name } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown };
  return typeof name === "string" && name ? name : undefined;
}
