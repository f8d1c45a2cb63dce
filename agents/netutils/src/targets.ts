import { promises as dns, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import {
  type NetworkGuardRule,
  namesPrivateHost,
  privateHostError,
  publicAddresses,
} from "@switchboard/agent-runtime";
import { ALLOW_PRIVATE_NETWORKS, type NetUtilsSettings } from "./env.js";

/** NetUtils under the network guard push notifications follow (agent-runtime's network-guard). */
export const NETUTILS_RULE: NetworkGuardRule = {
  what: "NetUtils checks",
  setting: ALLOW_PRIVATE_NETWORKS,
  code: "EPRIVATETARGET",
};

export interface Address {
  address: string;
  family: 4 | 6;
}

/** A host as users write it: brackets, a trailing dot and case dropped. */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
}

/**
 * Where the checks may connect: every target is resolved here (with NETUTILS_DNS_SERVERS when set,
 * else the system's resolver) and only its public addresses are returned, unless the operator
 * allows private networks. Checks then connect to the address returned, never to the name again,
 * so a name cannot resolve differently between the check and the connection.
 */
export class Targets {
  readonly resolver: dns.Resolver;

  constructor(private readonly settings: NetUtilsSettings) {
    this.resolver = new dns.Resolver({ timeout: Math.min(settings.timeoutMs, 5000), tries: 2 });
    if (settings.dnsServers.length > 0) this.resolver.setServers(settings.dnsServers);
  }

  get allowPrivate(): boolean {
    return this.settings.allowPrivate;
  }

  /** Refuses an address that is not public (unless allowed): for targets given as addresses. */
  checkAddress(address: string): void {
    if (!this.settings.allowPrivate && namesPrivateHost(address))
      throw privateHostError(address, NETUTILS_RULE);
  }

  /** The host's addresses the checks may reach; refused with the guard's wording when none may be. */
  async resolve(given: string): Promise<Address[]> {
    const host = normalizeHost(given);
    if (!host) throw new Error("Give a host name or an IP address.");
    const family = isIP(host);
    if (family) {
      this.checkAddress(host);
      return [{ address: host, family: family as 4 | 6 }];
    }
    if (!this.settings.allowPrivate && namesPrivateHost(host)) throw privateHostError(host, NETUTILS_RULE);
    const found = await this.addressesOf(host);
    if (found.length === 0) throw new Error(`${host} has no A or AAAA records: nothing to connect to.`);
    return this.settings.allowPrivate ? found : publicAddresses(host, found, NETUTILS_RULE);
  }

  /** A socket `lookup` that resolves as {@link resolve} does (for HTTP through undici). */
  lookup(): LookupFunction {
    return (hostname, options, callback) => {
      this.resolve(hostname).then(
        (addresses) => {
          const first = addresses[0] as Address;
          if (options.all) callback(null, addresses as LookupAddress[]);
          else callback(null, first.address, first.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, []),
      );
    };
  }

  private async addressesOf(host: string): Promise<Address[]> {
    if (this.settings.dnsServers.length === 0) {
      const all = await dns.lookup(host, { all: true }).catch(notFound(host));
      return all.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
    }
    const none = (error: NodeJS.ErrnoException) => {
      if (error.code === "ENODATA" || error.code === "ENOTFOUND") return [] as string[];
      throw error;
    };
    const [v4, v6] = await Promise.all([
      this.resolver.resolve4(host).catch(none),
      this.resolver.resolve6(host).catch(none),
    ]);
    return [
      ...v4.map((address) => ({ address, family: 4 as const })),
      ...v6.map((address) => ({ address, family: 6 as const })),
    ];
  }
}

function notFound(host: string) {
  return (error: NodeJS.ErrnoException): never => {
    if (error.code === "ENOTFOUND" || error.code === "ENODATA")
      throw new Error(`${host} does not resolve (${error.code}).`);
    throw error;
  };
}
