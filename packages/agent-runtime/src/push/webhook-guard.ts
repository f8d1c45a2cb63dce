import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** The setting that lets push notifications reach loopback, link-local and private networks. */
export const ALLOW_PRIVATE_WEBHOOKS = "PUSH_NOTIFICATIONS_ALLOW_PRIVATE_NETWORKS";

/** The error code of a webhook host that resolved only to addresses deliveries may not reach. */
export const PRIVATE_WEBHOOK = "EPRIVATEWEBHOOK";

/**
 * Whether an address is a public unicast one. Loopback, link-local (cloud metadata at
 * 169.254.169.254), private, unique-local, carrier-grade NAT, multicast, reserved and the IPv6 forms
 * that carry an IPv4 address (mapped, 6to4, Teredo, NAT64) are not.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === "unicast";
}

/** A webhook's host and path, for logs and errors: never its query, userinfo or fragment. */
export function webhookLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/**
 * What is wrong with a push-notification URL before anything is stored or sent: not http(s), or a
 * host that names a non-public address outright (an IP literal, `localhost`). Names resolving to
 * such addresses are caught when a delivery connects (see {@link publicOnlyLookup}).
 */
export function badWebhookUrl(url: unknown, allowPrivate: boolean): string | undefined {
  if (typeof url !== "string") return "the push notification URL must be a string";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "the push notification URL is not a valid absolute URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return `the push notification URL must be http or https, not ${parsed.protocol.slice(0, -1)}`;
  if (allowPrivate) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const local = host === "localhost" || host.endsWith(".localhost");
  if (local || (ipaddr.isValid(host) && !isPublicAddress(host))) {
    return (
      `the push notification URL's host ${parsed.host} is on a loopback, link-local or private network; ` +
      `deliveries go only to public addresses unless ${ALLOW_PRIVATE_WEBHOOKS}=true`
    );
  }
  return undefined;
}

type LookupAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for sockets that deliver push notifications: it resolves as usual and keeps only public
 * addresses, so a name that points at an internal address (at registration or, rebound, later)
 * fails to connect with {@link PRIVATE_WEBHOOK}.
 */
export function publicOnlyLookup(resolve: LookupAll = dnsLookup as unknown as LookupAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
      if (error) return callback(error, []);
      const allowed = addresses.filter((entry) => isPublicAddress(entry.address));
      const first = allowed[0];
      if (!first) {
        const refused: NodeJS.ErrnoException = new Error(
          `${hostname} resolves only to loopback, link-local or private addresses; push notifications go ` +
            `only to public addresses unless ${ALLOW_PRIVATE_WEBHOOKS}=true`,
        );
        refused.code = PRIVATE_WEBHOOK;
        return callback(refused, []);
      }
      if (options.all) return callback(null, allowed);
      callback(null, first.address, first.family);
    });
  };
}
