import { isIP } from "node:net";
import { isPublicAddress } from "@switchboard/agent-runtime";
import ipaddr from "ipaddr.js";
import { normalizeHost, type Targets } from "../targets.js";

export const RECORD_TYPES = ["A", "AAAA", "CNAME", "MX", "NS", "TXT", "SOA", "SRV", "CAA"] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

const DNS_ERRORS: Record<string, string> = {
  ENOTFOUND: "the name does not exist (NXDOMAIN)",
  ENODATA: "no records of that type",
  ETIMEOUT: "the DNS server did not answer in time",
  ECONNREFUSED: "the DNS server refused the connection",
  ESERVFAIL: "the DNS server failed (SERVFAIL)",
  EREFUSED: "the DNS server refused the query",
};

function dnsFailure(what: string, error: NodeJS.ErrnoException): string {
  const code = error.code ?? "";
  return `${what}: ${DNS_ERRORS[code] ?? error.message}${code && !DNS_ERRORS[code] ? "" : ` (${code})`}.`;
}

/** One record as a line: MX with its priority, SOA's fields, TXT's strings joined. */
function recordLines(type: RecordType, answer: unknown): string[] {
  const list = Array.isArray(answer) ? answer : [answer];
  return list.map((record) => {
    if (typeof record === "string") return record;
    if (type === "MX") return `${record.priority} ${record.exchange}`;
    if (type === "TXT") return (record as string[]).join("");
    if (type === "SRV") return `${record.priority} ${record.weight} ${record.port} ${record.name}`;
    if (type === "CAA")
      return Object.entries(record as Record<string, unknown>)
        .map(([key, value]) => `${key}=${value}`)
        .join(" ");
    if (type === "SOA")
      return `${record.nsname} ${record.hostmaster} serial ${record.serial} refresh ${record.refresh} retry ${record.retry} expire ${record.expire} minttl ${record.minttl}`;
    return JSON.stringify(record);
  });
}

/**
 * The records of one type. Addresses that are not public are withheld unless private networks are
 * allowed: a user learns no internal address through this agent (a public name that points inside is
 * the case the guard exists for).
 */
export async function lookupRecords(targets: Targets, given: string, type: RecordType): Promise<string> {
  const host = normalizeHost(given);
  let answer: unknown;
  try {
    answer = await targets.resolver.resolve(host, type);
  } catch (error) {
    return dnsFailure(`${type} ${host}`, error as NodeJS.ErrnoException);
  }
  let lines = recordLines(type, answer);
  let withheld = 0;
  if ((type === "A" || type === "AAAA") && !targets.allowPrivate) {
    const shown = lines.filter((address) => isPublicAddress(address));
    withheld = lines.length - shown.length;
    lines = shown;
  }
  const note =
    withheld > 0
      ? `\n(${withheld} loopback, link-local or private address${withheld > 1 ? "es" : ""} withheld; ` +
        "NetUtils shows only public ones unless NETUTILS_ALLOW_PRIVATE_NETWORKS=true)"
      : "";
  if (lines.length === 0) return `${type} ${host}: no public records.${note}`;
  return `${type} records of ${host}:\n${lines.map((line) => `  ${line}`).join("\n")}${note}`;
}

/** The name an address's PTR records are under: d.c.b.a.in-addr.arpa, or IPv6's nibbles under ip6.arpa. */
export function arpaName(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return `${parsed.toByteArray().reverse().join(".")}.in-addr.arpa`;
  const nibbles = parsed
    .toByteArray()
    .flatMap((byte) => [byte >> 4, byte & 15])
    .map((nibble) => nibble.toString(16));
  return `${nibbles.reverse().join(".")}.ip6.arpa`;
}

/** The names an address's PTR records give; the address is a target, so the guard decides first. */
export async function reverseLookup(targets: Targets, given: string): Promise<string> {
  const address = normalizeHost(given);
  if (!isIP(address)) throw new Error(`${given} is not an IP address: reverse DNS takes an address.`);
  targets.checkAddress(address);
  try {
    // The PTR query itself: Resolver.reverse would answer from /etc/hosts first.
    const names = await targets.resolver.resolvePtr(arpaName(address));
    return `${address} is ${names.join(", ")}.`;
  } catch (error) {
    return dnsFailure(`PTR ${address}`, error as NodeJS.ErrnoException);
  }
}
