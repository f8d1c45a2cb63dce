import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { NetUtilsSettings } from "./env.js";
import { lookupRecords, RECORD_TYPES, reverseLookup } from "./probes/dns.js";
import { httpRequest } from "./probes/http.js";
import { ping } from "./probes/ping.js";
import { describePort, tcpConnect } from "./probes/port.js";
import { tlsCertificate } from "./probes/tls.js";
import { traceroute } from "./probes/traceroute.js";
import { whois } from "./probes/whois.js";
import { normalizeHost, Targets } from "./targets.js";

const host = z
  .string()
  .min(1)
  .max(253)
  .describe("A host name or an IP address, e.g. example.com or 93.184.216.34");
const port = z.number().int().min(1).max(65535);

/** What a check acts on, for the policy: the host as DNS matches it (lower case, no trailing dot). */
export function hostResource(given: string): { host: string } {
  return { host: normalizeHost(given) };
}

/** The host of a URL, for the policy; a text that is not a URL names itself (the tool refuses it). */
export function urlHost(url: string): string {
  try {
    return normalizeHost(new URL(url).hostname);
  } catch {
    return normalizeHost(url);
  }
}

/** Every check reads; none changes anything, so none asks first. Every target passes the guard. */
export function netUtilsTools(settings: NetUtilsSettings): AgentTool[] {
  const targets = new Targets(settings);
  const first = async (given: string) =>
    (await targets.resolve(given))[0] as { address: string; family: 4 | 6 };
  return [
    defineTool({
      name: "dns_lookup",
      description: "Look up a name's DNS records of one type (A, AAAA, CNAME, MX, NS, TXT, SOA, SRV, CAA)",
      schema: z.object({ host, type: z.enum(RECORD_TYPES).default("A") }),
      resource: ({ host }) => hostResource(host),
      run: ({ host, type }) => lookupRecords(targets, host, type),
    }),
    defineTool({
      name: "reverse_dns_lookup",
      description: "The names an IP address's PTR records give (reverse DNS)",
      schema: z.object({ address: z.string().min(1).describe("An IPv4 or IPv6 address") }),
      resource: ({ address }) => hostResource(address),
      run: ({ address }) => reverseLookup(targets, address),
    }),
    defineTool({
      name: "ping_host",
      description:
        "Ping a host: ICMP with the system ping when installed, else a TCP connect ping (the answer says which)",
      schema: z.object({
        host,
        count: z.number().int().min(1).max(settings.maxPingCount).default(Math.min(4, settings.maxPingCount)),
        port: port.default(443).describe("For a TCP connect ping: the port to connect to"),
      }),
      resource: ({ host }) => hostResource(host),
      run: async ({ host, count, port }) =>
        ping(normalizeHost(host), await first(host), count, port, settings.timeoutMs),
    }),
    defineTool({
      name: "traceroute",
      description: "The routers on the way to a host (needs the system traceroute or tracepath)",
      schema: z.object({
        host,
        max_hops: z.number().int().min(1).max(settings.maxHops).default(settings.maxHops),
      }),
      resource: ({ host }) => hostResource(host),
      run: async ({ host, max_hops }) =>
        traceroute(normalizeHost(host), await first(host), max_hops, settings.timeoutMs),
    }),
    defineTool({
      name: "check_port",
      description: "Whether a TCP port of a host is open, closed (refused) or filtered (no answer)",
      schema: z.object({ host, port }),
      resource: ({ host }) => hostResource(host),
      run: async ({ host, port }) => {
        const target = await first(host);
        return describePort(
          normalizeHost(host),
          target,
          port,
          await tcpConnect(target, port, settings.timeoutMs),
        );
      },
    }),
    defineTool({
      name: "http_request",
      description:
        "Send an HTTP HEAD or GET to a URL: status, main headers, time, and for GET the body's start",
      schema: z.object({
        url: z.string().min(1).describe("An http or https URL"),
        method: z.enum(["HEAD", "GET"]).default("HEAD"),
      }),
      resource: ({ url }) => ({ host: urlHost(url) }),
      run: ({ url, method }) => httpRequest(targets, url, method, settings.timeoutMs),
    }),
    defineTool({
      name: "tls_certificate",
      description:
        "The TLS certificate a host presents: names, issuer, validity, days until it expires, whether it is trusted",
      schema: z.object({ host, port: port.default(443) }),
      resource: ({ host }) => hostResource(host),
      run: async ({ host, port }) =>
        tlsCertificate(normalizeHost(host), await first(host), port, settings.timeoutMs),
    }),
    defineTool({
      name: "whois_lookup",
      description: "WHOIS for a domain, IP address or AS number: registrar, dates, name servers, holder",
      schema: z.object({
        query: z.string().min(1).max(253).describe("e.g. example.com, 93.184.216.34, AS15169"),
      }),
      resource: ({ query }) => hostResource(query),
      run: ({ query }) => whois(targets, settings.whoisServer, query, settings.timeoutMs),
    }),
  ];
}
