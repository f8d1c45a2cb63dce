import { type AgentProcess, startAgentProcess as startProcess } from "@switchboard/fleet";

export type { AgentProcess };

export interface StartOptions {
  /** Settings on top of the test defaults (PATH, PORT=0, HOST=127.0.0.1, LOG_LEVEL=info, the run's NODE_COMPILE_CACHE). */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** The entry script relative to the package, default dist/index.js. */
  entry?: string;
  nodeArgs?: string[];
  /** The node options the agent ships with (default AGENT_NODE_ARGS, as deployed); [] for node's defaults. */
  agentNodeArgs?: readonly string[];
}

/**
 * Starts an agent package as the fleet does, with a clean test environment and a free port. The test
 * run's NODE_COMPILE_CACHE (scripts/test-all.mjs sets one) is passed on: the many agents a run starts
 * compile the same bundle, and reading V8's code for it from the cache is what it changes.
 */
export function startAgentProcess(packageDir: string, options: StartOptions = {}): Promise<AgentProcess> {
  return startProcess(packageDir, {
    env: {
      PATH: process.env.PATH,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
      ...options.env,
    },
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.entry ? { entry: options.entry } : {}),
    ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    ...(options.agentNodeArgs ? { agentNodeArgs: options.agentNodeArgs } : {}),
  });
}
