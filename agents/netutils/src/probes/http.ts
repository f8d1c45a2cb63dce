import { undici } from "@switchboard/agent-runtime";
import type { Targets } from "../targets.js";

const SHOWN_HEADERS = [
  "server",
  "content-type",
  "content-length",
  "location",
  "cache-control",
  "strict-transport-security",
  "date",
];
const BODY_CHARS = 2000;

/**
 * One HTTP(S) request, without following redirects (a redirect is reported with its Location).
 * The host goes through the guard before the request and again when the socket connects (the
 * connection's own lookup), so a name cannot point somewhere else in between.
 */
export async function httpRequest(
  targets: Targets,
  given: string,
  method: "HEAD" | "GET",
  timeoutMs: number,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new Error(`${JSON.stringify(given)} is not a URL: give one like https://example.com/health.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`Only http and https URLs can be requested, not ${url.protocol.slice(0, -1)}.`);
  await targets.resolve(url.hostname);
  // undici (about a hundred modules) loads with the first request, not with every start.
  const { Agent, request } = undici();
  const dispatcher = new Agent({
    connect: { lookup: targets.lookup(), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const label = `${url.protocol}//${url.host}${url.pathname}`;
  const started = performance.now();
  try {
    const response = await request(url, {
      method,
      dispatcher,
      headers: { "user-agent": "switchboard-netutils" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const ms = performance.now() - started;
    const headers = SHOWN_HEADERS.flatMap((name) => {
      const value = response.headers[name];
      return value === undefined ? [] : [`  ${name}: ${Array.isArray(value) ? value.join(", ") : value}`];
    });
    let body = "";
    if (method === "GET") {
      const text = await response.body.text();
      body = `\nbody (${text.length} characters${text.length > BODY_CHARS ? `, first ${BODY_CHARS}` : ""}):\n${text.slice(0, BODY_CHARS)}`;
    } else await response.body.dump();
    return `${method} ${label}: HTTP ${response.statusCode} in ${ms.toFixed(0)} ms\n${headers.join("\n")}${body}`;
  } catch (error) {
    const cause = (error as { cause?: NodeJS.ErrnoException }).cause ?? (error as NodeJS.ErrnoException);
    if (cause?.code === "EPRIVATETARGET") throw cause;
    throw new Error(
      `${method} ${label} failed: ${cause?.code ? `${cause.code} ` : ""}${cause?.message ?? String(error)}`,
    );
  } finally {
    await dispatcher.close();
  }
}
