import { ensurePythonEnv } from "./python-env.js";
import { startPythonPeer } from "./python-process.js";

export interface StartPythonA2aAgentOptions {
  /** Card name; replies are `"<name> echo: <text>"`. */
  name: string;
  description?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  startTimeoutMs?: number;
}

/** What the agent saw in one `message/send` or `message/stream`. */
export interface ReceivedMessage {
  contextId: string;
  taskId: string;
  text: string;
  /** `message.metadata` */
  metadata: Record<string, unknown>;
  /** `params.metadata` of the request (beside the message). */
  requestMetadata: Record<string, unknown>;
}

export interface PythonA2aAgent {
  /** Base URL; the card is at `<url>/.well-known/agent-card.json` and JSON-RPC is served at `<url>/`. */
  url: string;
  port: number;
  pid: number;
  /** Every message received so far, oldest first. */
  received(): Promise<ReceivedMessage[]>;
  stop(): Promise<void>;
}

/**
 * A Python a2a-sdk 0.3 agent (Starlette app on uvicorn, JSON-RPC, one "echo" skill, streaming on)
 * that answers with a completed task. It stands in for one of CAIPE's Python subagents.
 */
export async function startPythonA2aAgent(options: StartPythonA2aAgentOptions): Promise<PythonA2aAgent> {
  const env = await ensurePythonEnv();
  const { startTimeoutMs, ...args } = options;
  const peer = await startPythonPeer(env, "a2a_echo_agent.py", [JSON.stringify(args)], {
    label: `Python A2A agent "${options.name}"`,
    startTimeoutMs,
  });
  const url = `http://127.0.0.1:${peer.port}`;
  return {
    url,
    port: peer.port,
    pid: peer.pid,
    stop: peer.stop,
    async received() {
      const response = await fetch(`${url}/_test/received`);
      if (!response.ok) throw new Error(`GET ${url}/_test/received answered ${response.status}`);
      return (await response.json()) as ReceivedMessage[];
    },
  };
}
