import { isIP } from "node:net";
import type { buildConnector } from "undici";
import {
  isPublicAddress,
  type LookupAll,
  type NetworkGuardRule,
  privateHostError,
  publicOnlyLookup,
} from "./network-guard.js";
import { undici } from "./undici.js";

export interface GuardedConnectorOptions {
  /** How names are resolved (default: the system's resolver); each answer is filtered by the rule. */
  resolve?: LookupAll;
  /** How long a connection may take to open (undici's default when unset). */
  timeoutMs?: number;
}

/**
 * An undici `connect` under the network guard, for an Agent whose targets a caller chooses: the
 * address a socket goes to is checked when it connects, not only when a URL is read. A name is
 * resolved through the guard's lookup (so DNS rebinding between a check and the connection finds
 * nothing public to reach); an IP literal, which Node connects to without any lookup, is checked
 * itself (URL parsing has already turned decimal, octal and hex forms into dotted ones; IPv4-mapped
 * IPv6 counts as its IPv4 address); and the peer a socket did connect to is checked once more.
 */
export function guardedConnector(
  rule: NetworkGuardRule,
  options: GuardedConnectorOptions = {},
): buildConnector.connector {
  const connect = undici().buildConnector({
    lookup: publicOnlyLookup(rule, options.resolve),
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
  });
  return (target, callback) => {
    const host = target.hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) && !isPublicAddress(host)) return callback(privateHostError(host, rule), null);
    connect(target, (error, socket) => {
      if (error) return callback(error, null);
      const peer = socket?.remoteAddress;
      if (!socket || !peer || !isPublicAddress(peer)) {
        socket?.destroy();
        return callback(privateHostError(peer ?? target.hostname, rule), null);
      }
      callback(null, socket);
    });
  };
}
