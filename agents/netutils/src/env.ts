import { SwitchboardError } from "@switchboard/common";

/** The setting that lets NetUtils' checks reach loopback, link-local and private networks. */
export const ALLOW_PRIVATE_NETWORKS = "NETUTILS_ALLOW_PRIVATE_NETWORKS";

export interface HostAndPort {
  host: string;
  port: number;
}

export interface NetUtilsSettings {
  /** Checks may reach loopback, link-local and private addresses (NETUTILS_ALLOW_PRIVATE_NETWORKS=true). */
  allowPrivate: boolean;
  /** The DNS servers asked (NETUTILS_DNS_SERVERS); empty: the system's resolver. */
  dnsServers: string[];
  /** The WHOIS server asked first (NETUTILS_WHOIS_SERVER); default whois.iana.org:43, following its referral. */
  whoisServer: HostAndPort;
  /** CAIPE's MAX_PING_COUNT (10): the most probes one ping sends. */
  maxPingCount: number;
  /** CAIPE's MAX_TRACEROUTE_HOPS (30). */
  maxHops: number;
  /** CAIPE's CURL_TIMEOUT in seconds (15), for every connection a check makes. */
  timeoutMs: number;
}

function problem(message: string): never {
  throw new SwitchboardError("netutils.settings", "user", message);
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > max)
    problem(`${name}=${JSON.stringify(text)} is not a whole number from 1 to ${max}.`);
  return value;
}

/** `host`, `host:port`, `[v6]:port`; the port defaults to `port`. */
export function parseHostAndPort(text: string, port: number, setting: string): HostAndPort {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:\s]+)(?::(\d+))?$/.exec(text);
  const match = bracketed ?? plain;
  if (match?.[1]) return { host: match[1], port: match[2] ? Number(match[2]) : port };
  // A bare IPv6 address carries no port.
  if (text.includes(":") && !/\s/.test(text)) return { host: text, port };
  return problem(`${setting}=${JSON.stringify(text)} is not a host or host:port.`);
}

/** NetUtils' settings (CAIPE's names for the limits it had); a bad value stops the start, naming it. */
export function readNetUtilsSettings(env: NodeJS.ProcessEnv): NetUtilsSettings {
  const allow = env.NETUTILS_ALLOW_PRIVATE_NETWORKS?.trim().toLowerCase() ?? "";
  if (!["", "true", "false"].includes(allow))
    problem(`${ALLOW_PRIVATE_NETWORKS} must be true or false, not ${JSON.stringify(allow)}.`);
  const dnsServers = (env.NETUTILS_DNS_SERVERS ?? "")
    .split(",")
    .map((one) => one.trim())
    .filter(Boolean);
  const whois = env.NETUTILS_WHOIS_SERVER?.trim() || "whois.iana.org";
  return {
    allowPrivate: allow === "true",
    dnsServers,
    whoisServer: parseHostAndPort(whois, 43, "NETUTILS_WHOIS_SERVER"),
    maxPingCount: positive(env, "MAX_PING_COUNT", 10, 100),
    maxHops: positive(env, "MAX_TRACEROUTE_HOPS", 30, 64),
    timeoutMs: positive(env, "CURL_TIMEOUT", 15, 300) * 1000,
  };
}
