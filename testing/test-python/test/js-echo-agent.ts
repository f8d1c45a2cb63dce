// The TypeScript A2A agent (@a2a-js/sdk 1.3.0 with v0.3 compatibility on, as Switchboard's agents run)
// that the Python a2a-sdk 0.3 client talks to in the interop tests: a2a-client's echo agent.
import { startEchoAgent } from "../../../packages/a2a-client/test/echo-agent.js";

export interface SeenRequest {
  contextId: string;
  taskId: string;
  text: string;
  requestedVersion: string | undefined;
}

export interface JsEchoAgent {
  url: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startJsEchoAgent(): Promise<JsEchoAgent> {
  const agent = await startEchoAgent();
  return {
    url: agent.baseUrl,
    get seen() {
      return agent.received.map(({ contextId, taskId, text, version }) => ({
        contextId,
        taskId,
        text,
        requestedVersion: version,
      }));
    },
    close: () => agent.close(),
  };
}
