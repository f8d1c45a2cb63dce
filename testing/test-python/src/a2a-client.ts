import { spawn } from "node:child_process";
import { join } from "node:path";
import { ensurePythonEnv } from "./python-env.js";
import { pythonEnvVars } from "./python-process.js";

export interface PythonA2aClientRequest {
  /** Base URL of the agent: the card is read from `<url>/.well-known/agent-card.json`. */
  url: string;
  text: string;
  contextId: string;
  /** Continue an existing task (e.g. one waiting in input-required). */
  taskId?: string;
  timeoutMs?: number;
}

export interface PythonA2aClientResult {
  contextId: string;
  taskId: string;
  /** v0.3 task state (`completed`, `input-required`, ...); absent when the agent answered with a bare Message. */
  state?: string;
  /** Text of the reply: the task's status message, else its artifacts, else the Message's parts. */
  text: string;
  /** The Task or Message as the Python SDK parsed it, in v0.3 wire JSON. */
  raw: Record<string, unknown>;
}

/**
 * One `message/send` from the Python a2a-sdk 0.3 client (ClientFactory, non-streaming): the call that
 * CAIPE's Python supervisor makes to a subagent. Rejects with the Python traceback if the call fails.
 */
export async function runPythonA2aClient(request: PythonA2aClientRequest): Promise<PythonA2aClientResult> {
  const env = await ensurePythonEnv();
  const { timeoutMs = 60_000, ...args } = request;
  const stdout = await runScript(
    env.python,
    join(env.scriptsDir, "a2a_client.py"),
    JSON.stringify(args),
    timeoutMs,
  );
  const line = stdout.trim().split("\n").at(-1) ?? "";
  const parsed = JSON.parse(line) as Omit<PythonA2aClientResult, "state"> & { state: string | null };
  const { state, ...rest } = parsed;
  return state === null ? rest : { ...rest, state };
}

function runScript(python: string, script: string, arg: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [script, arg], { stdio: ["ignore", "pipe", "pipe"], env: pythonEnvVars() });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`Could not run the Python A2A client: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else {
        const why = signal === "SIGKILL" ? `timed out after ${timeoutMs} ms` : `exit ${code ?? signal}`;
        reject(new Error(`The Python A2A client failed (${why}):\n${stderr.trim()}`));
      }
    });
  });
}
