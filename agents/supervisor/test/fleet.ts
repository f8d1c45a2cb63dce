import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";
import { callTool, replyFromToolResult, routeByAgentPrefix, rules, say } from "@switchboard-testing/test-llm";

const agentsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Starts agents/<dir> as a process on a fixed port with the given settings. Without a grace period
 * unless `env` gives one: the tests stop their agents (SIGTERM) with no turn running, and each stop
 * otherwise waited a second for load balancers to notice (the runtime's READY_NOTICE_MS).
 */
export function startAgent(
  dir: string,
  port: number,
  env: Record<string, string | undefined>,
): Promise<AgentProcess> {
  return startAgentProcess(join(agentsDir, dir), {
    env: { SHUTDOWN_GRACE_SECONDS: "0", ...env, PORT: String(port) },
  });
}

/** The scripted model of a supervisor → Jira turn: route by "jira: …", search, answer from the result. */
export const jiraRouting = rules(
  [
    ...routeByAgentPrefix(),
    {
      lastUser: /open issues in ([A-Z]+)/,
      reply: (_r, { match }) => callTool("search_issues", { jql: `project = ${match?.[1]}` }),
    },
    { afterTool: true, reply: replyFromToolResult() },
  ],
  say("I only know Jira."),
);
