import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AgentProcess, startAgentProcess } from "@switchboard-testing/test-agents";

const agentsDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Starts agents/<dir> as a process on a fixed port with the given settings. */
export function startAgent(
  dir: string,
  port: number,
  env: Record<string, string | undefined>,
): Promise<AgentProcess> {
  return startAgentProcess(join(agentsDir, dir), { env: { ...env, PORT: String(port) } });
}
