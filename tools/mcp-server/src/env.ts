import { type AuthSettings, readAuthSettings } from "@switchboard/agent-runtime/auth/bearer";
import { parseEnv, SwitchboardError } from "@switchboard/common";
import { MCP_SERVER_PORT } from "@switchboard/contract";
import { z } from "zod";

const url = () => z.url({ protocol: /^https?$/ });

const McpServerEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(MCP_SERVER_PORT),
  HOST: z.string().default("0.0.0.0"),
  /** The supervisor (the Slack relay's name for it). */
  CAIPE_URL: url().default("http://localhost:8000"),
  /** The web chat's public URL: a confirmation the MCP client cannot show is answered there. */
  CAIPE_UI_BASE_URL: url().default("http://localhost:3000"),
  /** This server's MCP endpoint as clients reach it: the `resource` of its protected-resource metadata. */
  MCP_SERVER_PUBLIC_URL: url().optional(),
  /** The audience a user's token must name for this server (default: its MCP endpoint, the resource). */
  MCP_SERVER_AUDIENCE: z.string().trim().min(1).optional(),
  /** How long a turn may be silent before the call fails. */
  MCP_SERVER_TURN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(300),
  /** stdio only: the user's own token, sent to the supervisor on every call (the CLI's name). */
  SWITCHBOARD_TOKEN: z.string().trim().optional(),
  AUTH_ISSUER: z.string().optional(),
});

export interface McpServerSettings {
  port: number;
  host: string;
  supervisorUrl: string;
  webUrl: string;
  /** The MCP endpoint's public URL (undefined: this server's own address, known once it listens). */
  publicUrl: string | undefined;
  /**
   * The audience a user's token must name for this server (the MCP authorization spec's audience
   * rule); undefined: the MCP endpoint's public URL, the resource its metadata names.
   */
  audience: string | undefined;
  turnTimeoutMs: number;
  /** How users' tokens are verified: as the agents do (AUTH_*). */
  auth: AuthSettings;
  /** The identity provider that issues users' tokens (AUTH_ISSUER), named in the resource metadata. */
  issuer: string | undefined;
  /** stdio: the token every call carries. */
  token: string | undefined;
}

export function readMcpServerSettings(env: NodeJS.ProcessEnv): McpServerSettings {
  const e = parseEnv(McpServerEnv, env, { code: "mcp-server.config", what: "MCP server settings" });
  const auth = readAuthSettings(env, "mcp-server");
  if (auth.mode === "jwt" && !e.AUTH_ISSUER) {
    throw new SwitchboardError(
      "mcp-server.config",
      "user",
      "AUTH_MODE=jwt needs AUTH_ISSUER on the MCP server: its protected-resource metadata names the identity provider where MCP clients get users' tokens.",
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    supervisorUrl: e.CAIPE_URL.replace(/\/+$/, ""),
    webUrl: e.CAIPE_UI_BASE_URL.replace(/\/+$/, ""),
    publicUrl: e.MCP_SERVER_PUBLIC_URL,
    audience: e.MCP_SERVER_AUDIENCE,
    turnTimeoutMs: e.MCP_SERVER_TURN_TIMEOUT_SECONDS * 1000,
    auth,
    issuer: e.AUTH_ISSUER,
    token: e.SWITCHBOARD_TOKEN || undefined,
  };
}
