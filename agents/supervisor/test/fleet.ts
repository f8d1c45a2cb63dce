import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AgentProcess, startAgentProcess } from "@switchboard/test-agents/process";

const agentsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A port that was free a moment ago: agents that restart keep their URL. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Starts agents/<dir> as a process on a fixed port with the given settings. */
export function startAgent(
  dir: string,
  port: number,
  env: Record<string, string | undefined>,
): Promise<AgentProcess> {
  return startAgentProcess(join(agentsDir, dir), { env: { ...env, PORT: String(port) } });
}
