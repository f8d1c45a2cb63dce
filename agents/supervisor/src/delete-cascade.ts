import type { DeletedConversation, DeletionHook } from "@switchboard/agent-runtime";
import type { Roster } from "@switchboard/delegation";

/**
 * Deleting a conversation on the supervisor deletes it from every subagent too (each keeps its
 * own collections), with a token signed for each subagent alone on the caller's behalf, so each
 * deletes only that caller's thread. Each
 * subagent's answer (or why there is none) is listed under `subagents` in the supervisor's.
 */
export function deleteFromSubagents(roster: Roster): DeletionHook {
  return async (contextId, user) => ({
    subagents: await Promise.all(
      roster.list().map(async ({ config }) => {
        try {
          const token = await roster.bearerFor(config, user);
          const response = await fetch(`${config.url}/conversations/${encodeURIComponent(contextId)}`, {
            method: "DELETE",
            headers: token ? { authorization: `Bearer ${token}` } : {},
            signal: AbortSignal.timeout(10_000),
          });
          if (!response.ok) return { agent: config.name, error: `HTTP ${response.status}` };
          return (await response.json()) as DeletedConversation;
        } catch (error) {
          return { agent: config.name, error: error instanceof Error ? error.message : String(error) };
        }
      }),
    ),
  });
}
