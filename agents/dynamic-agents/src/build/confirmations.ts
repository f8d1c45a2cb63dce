import type { AgentSpec } from "../definitions/spec.js";

/**
 * Whether a tool of `source` asks the user before it runs, from the agent's `interrupt_on` (CAIPE:
 * tool-source id → tool name → true or `{ allowed_decisions }`). A tool it names asks. When the agent
 * sets `interrupt_on`, the tools it does not name run without asking unless their server marks them
 * destructive (undefined: the source's own rule decides, as for a destructive MCP tool); when it does
 * not set it, every tool follows Switchboard's rule (a tool that is not read-only asks).
 */
export function asksFor(
  spec: AgentSpec,
  source: string,
): ((tool: string, hints?: { destructive?: boolean }) => boolean | undefined) | undefined {
  const interruptOn = spec.interruptOn;
  if (interruptOn === undefined) return undefined;
  const named = interruptOn[source] ?? {};
  return (tool, hints) => {
    // A tool is named bare (as its server offers it) or as the model sees it (`<source>_<tool>`).
    const bare = tool.startsWith(`${source}_`) ? tool.slice(source.length + 1) : tool;
    if (named[bare] ?? named[tool]) return true;
    if (hints?.destructive === undefined) return undefined;
    return hints.destructive;
  };
}
