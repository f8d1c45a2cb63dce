import { parseEnv } from "@switchboard/common";
import { z } from "zod";

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

/** `host`, `host:port`, `[v6]:port`; the port defaults to `port`. Undefined: neither. */
export function parseHostAndPort(text: string, port: number): HostAndPort | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:\s]+)(?::(\d+))?$/.exec(text);
  const match = bracketed ?? plain;
  if (match?.[1]) return { host: match[1], port: match[2] ? Number(match[2]) : port };
  // A bare IPv6 address carries no port.
  if (text.includes(":") && !/\s/.test(text)) return { host: text, port };
  return undefined;
}

/** A whole number from 1 to `max`, `fallback` when unset. */
function count(name: string, fallback: number, max: number) {
  return z
    .string()
    .trim()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return fallback;
      const value = Number(text);
      if (Number.isInteger(value) && value >= 1 && value <= max) return value;
      ctx.addIssue({
        code: "custom",
        message: `${name}=${JSON.stringify(text)} is not a whole number from 1 to ${max}.`,
      });
      return z.NEVER;
    });
}

const NetUtilsEnv = z.object({
  NETUTILS_ALLOW_PRIVATE_NETWORKS: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .refine((text) => text === undefined || text === "true" || text === "false", {
      error: (issue) =>
        `${ALLOW_PRIVATE_NETWORKS} must be true or false, not ${JSON.stringify(issue.input)}.`,
    })
    .transform((text) => text === "true"),
  NETUTILS_DNS_SERVERS: z
    .string()
    .optional()
    .transform((text) =>
      (text ?? "")
        .split(",")
        .map((one) => one.trim())
        .filter(Boolean),
    ),
  NETUTILS_WHOIS_SERVER: z
    .string()
    .trim()
    .default("whois.iana.org")
    .transform((text, ctx) => {
      const server = parseHostAndPort(text, 43);
      if (server) return server;
      ctx.addIssue({
        code: "custom",
        message: `NETUTILS_WHOIS_SERVER=${JSON.stringify(text)} is not a host or host:port.`,
      });
      return z.NEVER;
    }),
  MAX_PING_COUNT: count("MAX_PING_COUNT", 10, 100),
  MAX_TRACEROUTE_HOPS: count("MAX_TRACEROUTE_HOPS", 30, 64),
  CURL_TIMEOUT: count("CURL_TIMEOUT", 15, 300),
});

/** NetUtils' settings (CAIPE's names for the limits it had); a bad value stops the start, naming it. */
export function readNetUtilsSettings(env: NodeJS.ProcessEnv): NetUtilsSettings {
  const e = parseEnv(NetUtilsEnv, env, { code: "netutils.settings", what: "NetUtils settings" });
  return {
    allowPrivate: e.NETUTILS_ALLOW_PRIVATE_NETWORKS,
    dnsServers: e.NETUTILS_DNS_SERVERS,
    whoisServer: e.NETUTILS_WHOIS_SERVER,
    maxPingCount: e.MAX_PING_COUNT,
    maxHops: e.MAX_TRACEROUTE_HOPS,
    timeoutMs: e.CURL_TIMEOUT * 1000,
  };
}
