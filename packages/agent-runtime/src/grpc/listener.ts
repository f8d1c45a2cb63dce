import { Server, ServerCredentials } from "@grpc/grpc-js";
import { type Logger, SwitchboardError } from "@switchboard/common";

// Loaded by serve.ts only when gRPC is served (its static imports keep grpc-js, CommonJS, working
// when an agent is bundled: a dynamic import of it would give its exports under `default` there).

/** A gRPC listener of the agent's own (HTTP/2, beside its HTTP port). */
export interface GrpcListener {
  port: number;
  /** Answers the services added to it (grpc-js serves what is added after it binds). */
  server: Server;
  close(): Promise<void>;
}

/**
 * Binds a gRPC server on `host:port` (0: a free one), plaintext as the agent's HTTP port is (TLS ends
 * at the ingress or mesh in front of both). A port in use stops the start with the setting to change.
 */
export async function listenGrpc(
  host: string,
  port: number,
  maxMessageBytes: number,
  logger: Logger,
): Promise<GrpcListener> {
  // MAX_REQUEST_BYTES, as on the HTTP port: a larger message is refused RESOURCE_EXHAUSTED unread.
  const server = new Server({ "grpc.max_receive_message_length": maxMessageBytes });
  const address = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, boundPort) =>
      error ? reject(error) : resolve(boundPort),
    ),
  ).catch((error: Error) => {
    throw new SwitchboardError(
      "runtime.config",
      "user",
      `Could not serve A2A over gRPC on ${address} (${error.message}): set A2A_GRPC_PORT to a free port, or A2A_GRPC_PORT=off.`,
    );
  });
  return {
    port: bound,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        // Calls still open after a drain are cut: the drain has already waited for them.
        const timer = setTimeout(() => server.forceShutdown(), 1_000);
        server.tryShutdown((error) => {
          clearTimeout(timer);
          if (error) logger.warn({ err: error }, "gRPC server did not shut down cleanly");
          resolve();
        });
      }),
  };
}
