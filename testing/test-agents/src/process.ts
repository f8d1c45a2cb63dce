import { type AgentProcess, startAgentProcess as startProcess } from "@switchboard/fleet";

export type { AgentProcess };

export interface StartOptions {
  /** Settings on top of the test defaults (PATH, PORT=0, HOST=127.0.0.1, LOG_LEVEL=info). */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** The entry script relative to the package, default dist/index.js. */
  entry?: string;
  nodeArgs?: string[];
  /** The node options the agent ships with (default AGENT_NODE_ARGS, as deployed); [] for node's defaults. */
  agentNodeArgs?: readonly string[];
}

/** Starts an agent package as the fleet does, with a clean test environment and a free port. */
export function startAgentProcess(packageDir: string, options: StartOptions = {}): Promise<AgentProcess> {
  return startProcess(packageDir, {
    env: { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...options.env },
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.entry ? { entry: options.entry } : {}),
    ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    ...(options.agentNodeArgs ? { agentNodeArgs: options.agentNodeArgs } : {}),
  });
}
