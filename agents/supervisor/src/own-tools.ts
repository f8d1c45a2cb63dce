import type { GuardedTools } from "@switchboard/agent-runtime";

/**
 * The supervisor's own tools as one set for its graph: `remember`, and the knowledge base's while
 * its server is connected. Each part is read at every model call, so tools that join later are
 * offered from the next one on; every call still goes through its part's guard.
 */
export function joinedTools(
  parts: Array<() => GuardedTools | undefined>,
  /** What must happen before a model call, for the turn (the knowledge base listing its tools as a user). */
  prepare?: GuardedTools["prepare"],
): GuardedTools {
  const current = () => parts.map((part) => part()).filter((part) => part !== undefined);
  const owner = (name: string) => current().find((part) => part.has(name));
  return {
    ...(prepare ? { prepare } : {}),
    get tools() {
      return current().flatMap((part) => part.tools);
    },
    has: (name) => owner(name) !== undefined,
    call: (toolCall, config) => {
      const part = owner(toolCall.name);
      if (!part) throw new Error(`${toolCall.name} is not one of the supervisor's tools`);
      return part.call(toolCall, config);
    },
  };
}
