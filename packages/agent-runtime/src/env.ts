import { parseEnv, SwitchboardError } from "@switchboard/common";
import { z } from "zod";
import type { ContextBudget } from "./graph/context-budget.js";
import type { LockSettings } from "./tasks/thread-lock.js";

const RuntimeEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  AGENT_PUBLIC_URL: z.url().optional(),
  // A2A over gRPC (HTTP/2) on a port of its own: a number, or "off". Default PORT + 1000 (CAIPE's 8000s → 9000s).
  A2A_GRPC_PORT: z
    .union([z.literal("off"), z.coerce.number().int().min(0).max(65_535)], {
      error: 'use a port number, or "off" to serve no gRPC',
    })
    .optional(),
  // The host:port gRPC clients reach this agent at (its card names it); default the public URL's host.
  // A URL with no path is taken too (grpc://, grpcs://, or http(s):// as A2A 1.0 writes an interface's
  // url), for clients that read one: the A2A TCK connects to it and checks it is http(s).
  A2A_GRPC_PUBLIC_ADDRESS: z
    .string()
    .regex(
      /^((grpc|http)s?:\/\/)?([^\s/:@]+|\[[0-9a-fA-F:.]+\]):\d+$/,
      "use host:port (or a URL with no path: grpc://host:port, https://host:port), e.g. jira.example.com:443",
    )
    .optional(),
  CONCURRENT_TURN_POLICY: z.enum(["enqueue", "reject"]).default("enqueue"),
  THREAD_LEASE_SECONDS: z.coerce.number().positive().default(30),
  CONCURRENT_TURN_WAIT_SECONDS: z.coerce.number().positive().default(120),
  CONFIRMATION_EXPIRY_SECONDS: z.coerce.number().positive().default(900),
  MAX_REQUEST_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  // CAIPE's names. Half of a 128k window: the count is an estimate (characters / 4), and the system
  // prompt, tool definitions and the answer need room beside the conversation.
  ENABLE_AUTO_COMPRESSION: z.stringbool().default(true),
  MAX_CONTEXT_TOKENS: z.coerce.number().int().positive().default(64_000),
  MIN_MESSAGES_TO_KEEP: z.coerce.number().int().positive().default(10),
  // Push notifications reach only public addresses unless this is on (a webhook inside your network).
  PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS: z.stringbool().default(false),
  // On SIGTERM: how long running turns get to finish (keep it under the orchestrator's grace period).
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().nonnegative().default(25),
  // How long an MCP server gets to start (a first `npx`/`uvx` run downloads it) and answer at start-up.
  MCP_STARTUP_TIMEOUT_SECONDS: z.coerce.number().positive().default(60),
});

export interface RuntimeSettings {
  port: number;
  host: string;
  /** The URL other agents and clients reach this agent at (on the card); default http://localhost:<port>. */
  publicUrl?: string;
  maxBodyBytes: number;
  /** Whether push notifications may go to loopback, link-local and private addresses. */
  allowPrivateWebhooks: boolean;
  /** SHUTDOWN_GRACE_SECONDS, in ms. */
  shutdownGraceMs: number;
  locks: LockSettings;
  /** How much of a conversation the model is sent; undefined: all of it (ENABLE_AUTO_COMPRESSION=false). */
  context: ContextBudget | undefined;
  /** MCP_STARTUP_TIMEOUT_SECONDS, in ms. */
  mcpStartupTimeoutMs: number;
  /** CONFIRMATION_EXPIRY_SECONDS, in ms: how long a change waits for the user's decision. */
  confirmationExpiryMs: number;
  /** A2A over gRPC: its port (0: any free one) and the address its card names; undefined when off. */
  grpc: { port: number; publicAddress?: string } | undefined;
}

/**
 * The serving settings: PORT (else the agent package's port, see readAgentPackage), HOST, AGENT_PUBLIC_URL,
 * MAX_REQUEST_BYTES, how concurrent messages on one conversation are handled, and the model's
 * context budget.
 */
export function readRuntimeSettings(
  env: NodeJS.ProcessEnv,
  agent: { name: string; port?: number | undefined },
): RuntimeSettings {
  const settings = parseEnv(RuntimeEnv, env, { code: "runtime.config", what: "agent settings" });
  const port = settings.PORT ?? agent.port;
  if (port === undefined) {
    throw new SwitchboardError(
      "runtime.config",
      "user",
      `The ${agent.name} agent has no port: set PORT, or declare "switchboard": { "port": <port> } in its package.json.`,
    );
  }
  return {
    port,
    host: settings.HOST,
    publicUrl: settings.AGENT_PUBLIC_URL?.replace(/\/+$/, ""),
    maxBodyBytes: settings.MAX_REQUEST_BYTES,
    allowPrivateWebhooks: settings.PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS,
    shutdownGraceMs: settings.SHUTDOWN_GRACE_SECONDS * 1000,
    locks: {
      policy: settings.CONCURRENT_TURN_POLICY,
      leaseMs: settings.THREAD_LEASE_SECONDS * 1000,
      waitMs: settings.CONCURRENT_TURN_WAIT_SECONDS * 1000,
    },
    context: settings.ENABLE_AUTO_COMPRESSION
      ? { maxTokens: settings.MAX_CONTEXT_TOKENS, keepMessages: settings.MIN_MESSAGES_TO_KEEP }
      : undefined,
    mcpStartupTimeoutMs: settings.MCP_STARTUP_TIMEOUT_SECONDS * 1000,
    confirmationExpiryMs: settings.CONFIRMATION_EXPIRY_SECONDS * 1000,
    grpc: grpcSettings(settings, port, agent.name),
  };
}

/**
 * gRPC's port: A2A_GRPC_PORT, else PORT + 1000 (a free one when PORT=0), so every agent of the fleet
 * has one beside its HTTP port without a setting each; "off" serves none.
 */
function grpcSettings(
  settings: z.infer<typeof RuntimeEnv>,
  port: number,
  agent: string,
): RuntimeSettings["grpc"] {
  if (settings.A2A_GRPC_PORT === "off") return undefined;
  const grpcPort = settings.A2A_GRPC_PORT ?? (port === 0 ? 0 : port + 1000);
  if (grpcPort > 65_535) {
    throw new SwitchboardError(
      "runtime.config",
      "user",
      `The ${agent} agent's gRPC port would be PORT + 1000 = ${grpcPort}, past 65535: set A2A_GRPC_PORT, or A2A_GRPC_PORT=off.`,
    );
  }
  if (grpcPort !== 0 && grpcPort === port) {
    throw new SwitchboardError(
      "runtime.config",
      "user",
      `A2A_GRPC_PORT (${grpcPort}) is the agent's HTTP PORT: gRPC needs a port of its own; set another, or A2A_GRPC_PORT=off.`,
    );
  }
  return {
    port: grpcPort,
    ...(settings.A2A_GRPC_PUBLIC_ADDRESS ? { publicAddress: settings.A2A_GRPC_PUBLIC_ADDRESS } : {}),
  };
}
