import { type AgentProcess, startAgentProcess } from "./agent-process.js";

export interface FleetMember {
  name: string;
  url: string;
  process: AgentProcess;
}

export interface FleetOptions {
  root: string;
  /** The environment every agent starts with (the caller's env plus .env). */
  env: NodeJS.ProcessEnv;
  /** Every line any agent prints, with the agent's name. */
  onLine?: (agent: string, line: string) => void;
  /** Reports each agent as it becomes ready or fails. */
  onStatus?: (agent: string, status: "starting" | "ready" | "failed", detail?: string) => void;
  /** Also start tools/mcp-server (npm start does; a test's fleet only when it asks). */
  mcpServer?: boolean;
  /** `false`: no web chat (a fleet only programs talk to, such as an evaluation's). */
  web?: boolean;
}

/** A member that did not start: its name and why. */
export interface Failure {
  name: string;
  error: string;
}

/**
 * Starts the package in `dir` as member `name` with exactly `env`, waits until its /ready answers,
 * and reports each step through `options.onStatus` (a failure too, before it is thrown).
 */
export async function startMember(
  options: FleetOptions,
  name: string,
  dir: string,
  env: NodeJS.ProcessEnv,
): Promise<FleetMember> {
  options.onStatus?.(name, "starting");
  try {
    const process = await startAgentProcess(dir, { env, onLine: (line) => options.onLine?.(name, line) });
    await waitUntilReady(process.url);
    options.onStatus?.(name, "ready", process.url);
    return { name, url: `http://localhost:${process.port}`, process };
  } catch (error) {
    options.onStatus?.(name, "failed", messageOf(error));
    throw error;
  }
}

/** A member the fleet runs without when it cannot start: its failure goes to `failed`, and it is undefined. */
export function orReported(
  failed: Failure[],
  name: string,
  starting: Promise<FleetMember>,
): Promise<FleetMember | undefined> {
  return starting.catch((error: unknown) => {
    failed.push({ name, error: messageOf(error) });
    return undefined;
  });
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The port of a URL on this machine; undefined for another machine's (a CAIPE .env's container URL). */
export function loopbackPort(url: string | undefined): string | undefined {
  try {
    const { hostname, port } = new URL(url ?? "");
    const local = hostname === "localhost" || hostname.startsWith("127.") || hostname === "[::1]";
    return local && port ? port : undefined;
  } catch {
    return undefined;
  }
}

async function waitUntilReady(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ready = await fetch(`${url}/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url}/ready did not answer 200 within ${timeoutMs} ms`);
}
