import { createServer } from "node:http";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createLogger, isSwitchboardError, listenHttp, runProcess } from "@switchboard/common";
import { announceReady, packageDirOwning, readAgentPackage } from "@switchboard/contract";
import { detectAgentName } from "@switchboard/utils";
import { readAuthSettings } from "./auth/bearer.js";
import type { AgentDefinition } from "./definition.js";
import { readRuntimeSettings } from "./env.js";
import { grpcAddress } from "./grpc/address.js";
import type { GrpcListener } from "./grpc/listener.js";
import { type AgentMount, buildAgent, type ServeOptions } from "./mount.js";

export type { ServeOptions } from "./mount.js";

export interface RunningAgent {
  name: string;
  /** The URL it listens on (loopback form of the bound address). */
  url: string;
  publicUrl: string;
  /** Where it answers A2A over gRPC (host:port, loopback form), unless A2A_GRPC_PORT=off. */
  grpcUrl?: string;
  /** The agent's own checkpoint saver (tests read what a turn stored through it). */
  checkpointer: BaseCheckpointSaver;
  /**
   * Shuts down without losing a turn: not ready and turning new requests away at once, the running
   * turns given `graceMs` (default SHUTDOWN_GRACE_SECONDS) to finish, any still running then failed
   * (asking to send again) with their leases released, then closed.
   */
  drain(graceMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts an agent: the agent mounted (mount.ts: checkpointer, failing fast when MongoDB is
 * configured but unreachable, LLM, LangGraph agent, durable task store, A2A request handler) and
 * served by a listener of its own on PORT.
 */
export async function serveAgent(
  definition: AgentDefinition,
  options: ServeOptions = {},
): Promise<RunningAgent> {
  const env = options.env ?? process.env;
  const name = agentName(definition, env);
  const logger = options.logger ?? createLogger({ base: { agent: name } });
  const settings = readRuntimeSettings(env, { name, port: declaredPort() });
  const auth = readAuthSettings(env, name);
  if (auth.mode === "jwt") for (const warning of auth.warnings) logger.warn(warning);
  if (auth.mode === "none" && !isLoopback(settings.host)) {
    logger.warn(
      { host: settings.host },
      "AUTH_MODE=none while listening beyond loopback: anyone who can reach this port can use the agent. Set AUTH_MODE=jwt to require tokens.",
    );
  }
  const built = await buildAgent(definition, {
    env,
    logger,
    name,
    settings,
    auth,
    ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
  });

  // Bind first: with PORT=0 the card's default URL needs the port the system picked.
  const server = createServer();
  let port: number;
  let grpc: GrpcListener | undefined;
  let agent: AgentMount;
  try {
    port = await listenHttp(server, settings.port, settings.host);
    const publicUrl = settings.publicUrl ?? `http://localhost:${port}`;
    grpc = settings.grpc
      ? await (await import("./grpc/listener.js")).listenGrpc(
          settings.host,
          settings.grpc.port,
          settings.maxBodyBytes,
          logger,
        )
      : undefined;
    agent = built.mount(
      publicUrl,
      grpc && { address: settings.grpc?.publicAddress ?? grpcAddress(publicUrl, grpc.port), tenant: "" },
    );
    if (grpc) await agent.addGrpcServices(grpc.server);
  } catch (error) {
    await grpc?.close();
    server.close();
    await built.close();
    throw error;
  }
  server.on("request", agent.handle);
  const { publicUrl } = agent;
  logger.info(
    { url: publicUrl, port, ...(grpc ? { grpcPort: grpc.port } : {}), ...built.described },
    `${name} agent ready`,
  );
  announceReady({ agent: name, port, url: publicUrl });
  const close = async () => {
    server.closeAllConnections();
    await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), grpc?.close()]);
    await agent.close();
  };
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    ...(grpc ? { grpcUrl: `127.0.0.1:${grpc.port}` } : {}),
    publicUrl,
    checkpointer: agent.checkpointer,
    drain: async (graceMs) => {
      await agent.settle(graceMs);
      await close();
    },
    close,
  };
}

/** The agent's name: AGENT_NAME, else its package's name, else the definition's. */
function agentName(definition: AgentDefinition, env: NodeJS.ProcessEnv): string {
  try {
    return detectAgentName({ env }).name;
  } catch (error) {
    if (isSwitchboardError(error) && error.code === "agent-name.undetected") return definition.name;
    throw error;
  }
}

/** The port the running agent's package declares, for when PORT is unset. */
function declaredPort(): number | undefined {
  const dir = process.argv[1] ? packageDirOwning(process.argv[1]) : undefined;
  return dir ? readAgentPackage(dir).port : undefined;
}

/** An agent's process: served until SIGTERM or SIGINT, then drained (runProcess, in @switchboard/common). */
export function runAgent(definition: AgentDefinition): Promise<void> {
  return runProcess(definition.name, `${definition.name} agent`, (logger) =>
    serveAgent(definition, { logger }),
  );
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host.startsWith("127.");
}
