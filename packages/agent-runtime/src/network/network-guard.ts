import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The one rule for connections a caller chooses the target of (push-notification webhooks, NetUtils'
 * checks): public unicast addresses only, unless an operator's setting allows private networks.
 * Each user of the rule names itself and its setting, so a refusal says whose rule it is and how to
 * lift it.
 */
export interface NetworkGuardRule {
  /** Who goes only to public addresses, as a sentence's subject: "push notifications", "NetUtils checks". */
  what: string;
  /** The env setting that allows loopback, link-local and private networks (`<setting>=true`). */
  setting: string;
  /** The error code of a name that resolved only to refused addresses. */
  code: string;
}

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

/**
 * Whether a host, as written in a URL or given by a user, names a non-public place outright: an IP
 * literal that is not public (brackets allowed), or `localhost` and its subdomains. Names that
 * resolve to such addresses are caught when they are resolved (see {@link publicAddresses}).
 */
export function namesPrivateHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare.endsWith(".localhost")) return true;
  return ipaddr.isValid(bare) && !isPublicAddress(bare);
}

/** The refusal of a host given as a loopback, link-local or private address (or `localhost`). */
export function privateHostError(host: string, rule: NetworkGuardRule): NodeJS.ErrnoException {
  const refused: NodeJS.ErrnoException = new Error(
    `${host} is a loopback, link-local or private address; ${rule.what} go only to public addresses ` +
      `unless ${rule.setting}=true`,
  );
  refused.code = rule.code;
  return refused;
}

/** The refusal of a name whose every address is loopback, link-local or private. */
export function privateNameError(hostname: string, rule: NetworkGuardRule): NodeJS.ErrnoException {
  const refused: NodeJS.ErrnoException = new Error(
    `${hostname} resolves only to loopback, link-local or private addresses; ${rule.what} go ` +
      `only to public addresses unless ${rule.setting}=true`,
  );
  refused.code = rule.code;
  return refused;
}

/** The public ones of a name's addresses; none: the rule's refusal (DNS answers are checked, not only names). */
export function publicAddresses<A extends { address: string }>(
  hostname: string,
  addresses: readonly A[],
  rule: NetworkGuardRule,
): A[] {
  const allowed = addresses.filter((entry) => isPublicAddress(entry.address));
  if (allowed.length === 0) throw privateNameError(hostname, rule);
  return allowed;
}

export type LookupAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for sockets under the rule: it resolves as usual and keeps only public addresses, so a
 * name that points at an internal address (when first checked or, rebound, later) fails to connect
 * with the rule's code.
 */
export function publicOnlyLookup(
  rule: NetworkGuardRule,
  resolve: LookupAll = dnsLookup as unknown as LookupAll,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
      if (error) return callback(error, []);
      let allowed: LookupAddress[];
      try {
        allowed = publicAddresses(hostname, addresses, rule);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, []);
      }
      const first = allowed[0] as LookupAddress;
      if (options.all) return callback(null, allowed);
      callback(null, first.address, first.family);
    });
  };
}
