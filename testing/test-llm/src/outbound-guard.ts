import dns from "node:dns";
import net from "node:net";

export interface OutboundAttempt {
  host: string;
  port: number | undefined;
  /** `connect`: a TCP/TLS socket was opened; `lookup`: a name was resolved with dns.lookup. */
  via: "connect" | "lookup";
  allowed: boolean;
}

export interface OutboundGuardOptions {
  /** Hosts that may be reached; default loopback (`127.0.0.0/8`, `::1`, `localhost`). */
  allow?: (host: string) => boolean;
  /** Fail connections to other hosts at once instead of letting them out. Default true. */
  block?: boolean;
}

export interface OutboundGuard {
  /** Every connection attempt and name lookup made by this process since the guard was installed. */
  attempts: OutboundAttempt[];
  /** Sorted distinct hosts of the attempts that were not allowed. */
  disallowedHosts(): string[];
  /** Puts the original `net.Socket.prototype.connect` and `dns.lookup` back. */
  restore(): void;
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

type ConnectArgs = Parameters<net.Socket["connect"]>;

// net.connect() hands Socket#connect its arguments already normalized as [options, callback].
function targetOf(args: unknown[]): { host: string; port: number | undefined } | undefined {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    return { host: typeof args[1] === "string" ? args[1] : "localhost", port: Number(first) };
  }
  if (typeof first === "object" && first !== null) {
    const options = first as { host?: unknown; port?: unknown; path?: unknown };
    if (typeof options.path === "string" && options.port === undefined) return undefined; // IPC, not network
    return {
      host: typeof options.host === "string" ? options.host : "localhost",
      port: options.port === undefined ? undefined : Number(options.port),
    };
  }
  return undefined;
}

/**
 * Records (and by default blocks) every outbound connection this process makes: for tests that
 * prove a code path stays on loopback. It observes the real sockets; nothing is answered in their place.
 */
export function guardOutboundConnections(options: OutboundGuardOptions = {}): OutboundGuard {
  const { allow = isLoopback, block = true } = options;
  const attempts: OutboundAttempt[] = [];
  const originalConnect = net.Socket.prototype.connect;
  const originalLookup = dns.lookup;

  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const target = targetOf(args);
    if (target) {
      const allowed = allow(target.host);
      attempts.push({ ...target, via: "connect", allowed });
      if (!allowed && block) {
        const error = Object.assign(
          new Error(
            `outbound connection to ${target.host}:${target.port} blocked by the test's outbound guard`,
          ),
          { code: "ENETUNREACH" },
        );
        process.nextTick(() => this.destroy(error));
        return this;
      }
    }
    return originalConnect.apply(this, args as ConnectArgs);
  } as typeof originalConnect;

  dns.lookup = function guardedLookup(hostname: string, ...rest: unknown[]) {
    attempts.push({ host: hostname, port: undefined, via: "lookup", allowed: allow(hostname) });
    return (originalLookup as (...all: unknown[]) => unknown)(hostname, ...rest);
  } as typeof dns.lookup;

  return {
    attempts,
    disallowedHosts: () => [...new Set(attempts.filter((a) => !a.allowed).map((a) => a.host))].sort(),
    restore() {
      net.Socket.prototype.connect = originalConnect;
      dns.lookup = originalLookup;
    },
  };
}
