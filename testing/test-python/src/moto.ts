import { ensurePythonEnv } from "./python-env.js";
import { startPythonPeer } from "./python-process.js";

/** moto in server mode: one endpoint for every AWS service it emulates (EC2, S3, CloudWatch, EKS, Cost Explorer, ...). */
export interface TestMoto {
  /** `http://127.0.0.1:<port>`: pass as `endpoint` to AWS SDK v3 clients (or as AWS_ENDPOINT_URL). */
  endpoint: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export interface StartMotoOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  startTimeoutMs?: number;
}

/**
 * Starts moto_server on loopback (ThreadedMotoServer) in the repo's .venv and waits until it answers.
 * State lives in that process only: each call is an empty AWS account. Any access key works.
 */
export async function startMoto(options: StartMotoOptions = {}): Promise<TestMoto> {
  const env = await ensurePythonEnv();
  const peer = await startPythonPeer(env, "moto_server.py", [String(options.port ?? 0)], {
    label: "moto_server",
    startTimeoutMs: options.startTimeoutMs,
  });
  const endpoint = `http://127.0.0.1:${peer.port}`;
  try {
    await waitUntilAnswering(`${endpoint}/moto-api/`, 10_000);
  } catch (error) {
    await peer.stop();
    throw error;
  }
  return { endpoint, port: peer.port, pid: peer.pid, stop: peer.stop };
}

async function waitUntilAnswering(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      if (response.ok) return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`moto_server at ${url} did not answer: ${String(error)}`);
    }
    if (Date.now() > deadline) throw new Error(`moto_server at ${url} did not answer in ${timeoutMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
