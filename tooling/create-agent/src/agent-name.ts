import { assertValidAgentName } from "@switchboard/utils";

/** Words that name something else in the workspace or the fleet files, never an agent. */
export const RESERVED_NAMES: readonly string[] = [
  "a2a",
  "a2a-client",
  "agent",
  "agent-runtime",
  "agents",
  "all",
  "all-agents",
  "cli",
  "common",
  "config",
  "create-agent",
  "default",
  "dist",
  "e2e",
  "fleet",
  "fleet-config",
  "llm",
  "mongo",
  "mongodb",
  "new",
  "none",
  "packages",
  "runtime",
  "shared",
  "src",
  "supervisor",
  "switchboard",
  "template",
  "templates",
  "test",
  "testing",
  "tests",
  "tooling",
  "tools",
  "utils",
];

const MAX_LENGTH = 40;
const SHAPE = /^[a-z][a-z0-9-]*$/;

/**
 * Why a name cannot be a new agent's (a valid npm name part, env prefix and collection suffix, not
 * reserved), or undefined when it can.
 */
export function agentNameProblem(name: string): string | undefined {
  const quoted = JSON.stringify(name);
  if (name.length === 0) return "Give the agent a name, e.g. pnpm new-agent pagerduty.";
  if (name.length > MAX_LENGTH)
    return `Agent name ${quoted} is ${name.length} characters long; use at most ${MAX_LENGTH}.`;
  if (!SHAPE.test(name) || name.endsWith("-") || name.includes("--")) {
    return (
      `Agent name ${quoted} is not valid: use lowercase letters, digits and single '-' between them, ` +
      "starting with a letter (e.g. pagerduty, my-tool)."
    );
  }
  if (name.startsWith("agent-")) {
    return `Agent name ${quoted} starts with "agent-": drop it, the package becomes @switchboard/agent-${name.slice(6)}.`;
  }
  if (name.startsWith("test-") || name.startsWith("fake-")) {
    return `Agent name ${quoted} looks like a test package's name (test-*, fake-*); choose another.`;
  }
  if (RESERVED_NAMES.includes(name)) {
    return `Agent name ${quoted} is reserved (it names a workspace package, profile or service); choose another.`;
  }
  try {
    assertValidAgentName(name, "the new-agent argument");
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return undefined;
}
