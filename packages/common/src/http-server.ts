import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How long an idle keep-alive connection stays open: longer than the 60 s idle timeout of the load
 * balancers and ingresses in front of a service (nginx's upstream keepalive, AWS ALB), so a proxy
 * never sends a request on a connection the server is closing at that moment. Node's 5 s default
 * makes that race common under load: the proxy answers 502, a client sees ECONNRESET.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * Starts `server` listening on `port` (0: the system picks one) with keep-alive longer than a
 * proxy's; resolves with the port, rejects with the bind error (e.g. EADDRINUSE).
 */
export async function listenHttp(server: Server, port: number, host?: string): Promise<number> {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Longer than keepAliveTimeout, or a reused connection can be ended while its headers arrive.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
