import { parseEnv } from "@switchboard/common";
import { z } from "zod";

/**
 * The host's own settings. Every other setting (AUTH_MODE, MONGODB_URI, the LLM's, policies,
 * SHUTDOWN_GRACE_SECONDS, …) is the runtime's and applies to each configured agent as to any agent.
 */
const HostEnv = z.object({
  // CAIPE 0.6 runs its dynamic agents on 8001, which Switchboard's GitHub agent holds.
  PORT: z.coerce.number().int().min(0).max(65_535).default(8100),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  // Where clients reach the host; each agent is at <AGENT_PUBLIC_URL>/agents/<id>.
  AGENT_PUBLIC_URL: z.url().optional(),
  // CAIPE's name: the app-config.yaml whose agents are served (read by the definitions).
  APP_CONFIG_FILE: z.string().trim().min(1).optional(),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().nonnegative().default(25),
  MCP_STARTUP_TIMEOUT_SECONDS: z.coerce.number().positive().default(60),
});

export interface HostSettings {
  port: number;
  host: string;
  /** The host's public base URL, without a trailing slash; undefined: http://localhost:<port>. */
  publicUrl?: string;
  appConfigFile?: string;
  shutdownGraceMs: number;
  mcpStartupTimeoutMs: number;
}

export function readHostSettings(env: NodeJS.ProcessEnv): HostSettings {
  const e = parseEnv(HostEnv, env, { code: "dynamic-agents.config", what: "dynamic-agents host settings" });
  return {
    port: e.PORT,
    host: e.HOST,
    ...(e.AGENT_PUBLIC_URL ? { publicUrl: e.AGENT_PUBLIC_URL.replace(/\/+$/, "") } : {}),
    ...(e.APP_CONFIG_FILE ? { appConfigFile: e.APP_CONFIG_FILE } : {}),
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    mcpStartupTimeoutMs: e.MCP_STARTUP_TIMEOUT_SECONDS * 1000,
  };
}
