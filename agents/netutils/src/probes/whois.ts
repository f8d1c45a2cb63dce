import { query as whoisQuery } from "whoiser";
import type { HostAndPort } from "../env.js";
import { normalizeHost, type Targets } from "../targets.js";

const MAX_LINES = 80;

/** The server a WHOIS answer refers to: IANA's `refer:`/`whois:`, a registry's `Registrar WHOIS Server:`. */
export function referralOf(text: string): string | undefined {
  const found =
    /^\s*(?:refer|whois):\s*(\S+)/im.exec(text)?.[1] ??
    /^\s*Registrar WHOIS Server:\s*(\S+)/im.exec(text)?.[1];
  return found?.replace(/^[a-z]+:\/\//i, "").replace(/\/.*$/, "") || undefined;
}

/**
 * WHOIS over TCP 43 (RFC 3912) with whoiser's query: the first server (whois.iana.org unless
 * NETUTILS_WHOIS_SERVER) and up to two referrals (registry, then registrar). Every server, the
 * referred ones included, is connected to through the guard, by the address it resolved to.
 */
export async function whois(
  targets: Targets,
  first: HostAndPort,
  given: string,
  timeoutMs: number,
): Promise<string> {
  const subject = normalizeHost(given);
  let server = first;
  const asked: string[] = [];
  let text = "";
  for (let hop = 0; hop < 3; hop++) {
    const [address] = await targets.resolve(server.host);
    if (!address) break;
    asked.push(`${server.host}${server.port === 43 ? "" : `:${server.port}`}`);
    const answer = await whoisQuery({
      host: address.address,
      port: server.port,
      query: subject,
      timeout: timeoutMs,
    }).catch((error: Error) => {
      throw new Error(`WHOIS server ${server.host} did not answer: ${error.message}`);
    });
    if (!answer.trim()) break;
    text = answer;
    const next = referralOf(answer);
    if (!next || asked.includes(next.toLowerCase())) break;
    server = { host: next.toLowerCase(), port: 43 };
  }
  if (!text.trim()) return `No WHOIS answer for ${subject} (asked ${asked.join(", ")}).`;
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() && !/^\s*[%#]/.test(line));
  const shown = lines.slice(0, MAX_LINES).join("\n");
  const more = lines.length > MAX_LINES ? `\n(${lines.length - MAX_LINES} more lines)` : "";
  return `WHOIS ${subject} (from ${asked.join(" → ")}):\n${shown}${more}`;
}
