import { ensurePythonEnv, type PythonEnvName } from "./python-env.js";
import { startPythonPeer } from "./python-process.js";

/** Which Python a2a-sdk line builds the agent, and so which A2A protocol version it speaks. */
export type PythonA2aSdk = "0.3" | "1.x";

export interface StartPythonA2aAgentOptions {
  /** Card name; replies are `"<name> echo: <text>"`. */
  name: string;
  description?: string;
  /**
   * `"0.3"` (default): a2a-sdk 0.3, a v0.3 card and JSON-RPC (CAIPE's agents). `"1.x"`: a2a-sdk 1.x
   * built like the A2A project's helloworld sample, a 1.0 card and JSON-RPC only; it runs from the
   * separate `.venv-a2a1`.
   */
  sdk?: PythonA2aSdk;
  /** 0 (default) picks a free port. */
  port?: number;
  startTimeoutMs?: number;
}

/** What the agent saw in one `message/send` or `message/stream` (v1.0: `SendMessage`, `SendStreamingMessage`). */
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

const peers: Record<PythonA2aSdk, { env: PythonEnvName; script: string }> = {
  "0.3": { env: "default", script: "a2a_echo_agent.py" },
  "1.x": { env: "a2a1", script: "a2a1_echo_agent.py" },
};

/**
 * A Python a2a-sdk agent (Starlette routes on uvicorn, JSON-RPC, one "echo" skill, streaming on) that
 * answers with a completed task. With the default `sdk: "0.3"` it stands in for one of CAIPE's Python
 * subagents; with `sdk: "1.x"` it is an A2A protocol 1.0 peer.
 */
export async function startPythonA2aAgent(options: StartPythonA2aAgentOptions): Promise<PythonA2aAgent> {
  const { startTimeoutMs, sdk = "0.3", ...args } = options;
  const { env: envName, script } = peers[sdk];
  const env = await ensurePythonEnv({ name: envName });
  const peer = await startPythonPeer(env, script, [JSON.stringify(args)], {
    label: `Python a2a-sdk ${sdk} agent "${options.name}"`,
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
