import { httpStatusOf, maskSecrets, networkFailureOf } from "@switchboard/common";
import { A2ACallError } from "./errors.js";

/** What the caller was doing, for the message: `send`, `stream`, `getTask`, `cancel`, `agent card fetch`. */
export interface CallSite {
  agentUrl: string;
  operation: string;
  /** Values that must never appear in a message (the tokens in use). */
  secrets: readonly string[];
  timeoutMs: number;
  /** Set when our own deadline fired, so an AbortError is reported as a timeout. */
  timedOut?: boolean;
}

const NETWORK_HINTS: Record<string, string> = {
  ECONNREFUSED: "connection refused; is the agent running on that port?",
  ENOTFOUND: "host not found; check the host name",
  EAI_AGAIN: "DNS lookup failed; check the host name and network",
  ECONNRESET: "connection reset by the agent",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  UND_ERR_SOCKET: "the agent closed the connection",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_HEADERS_TIMEOUT: "the agent accepted the connection but sent no answer in time",
  UND_ERR_BODY_TIMEOUT: "the agent stopped sending its answer",
  EPROTO: "TLS handshake failed; does the URL's scheme (http or https) match the agent's?",
};

/** Maps anything the SDK or fetch throws to an A2ACallError that says who failed and why. */
export function describeCallError(error: unknown, site: CallSite): A2ACallError {
  if (error instanceof A2ACallError) return error;
  const where = `A2A agent at ${site.agentUrl}`;
  const clean = (text: string) => maskSecrets(text, site.secrets);

  if (site.timedOut) {
    return new A2ACallError(
      "a2a.timeout",
      `${where} did not answer ${site.operation} within ${site.timeoutMs} ms`,
      {
        agentUrl: site.agentUrl,
        cause: error,
      },
    );
  }

  const network = networkFailureOf(error)?.code;
  if (network) {
    const hint = NETWORK_HINTS[network] ?? "network error";
    return new A2ACallError(
      "a2a.unreachable",
      `Cannot reach ${where} (${site.operation}): ${network}, ${hint}`,
      {
        agentUrl: site.agentUrl,
        networkCode: network,
        cause: error,
      },
    );
  }

  // An error inside an SSE stream arrives wrapped; the JSON-RPC error is its cause.
  const rpc = rpcError(error) ?? (error instanceof Error ? rpcError(error.cause) : undefined);
  if (rpc) {
    return new A2ACallError(
      "a2a.rpc_error",
      `${where} rejected ${site.operation}: JSON-RPC error ${rpc.code} (${rpc.name}): ${clean(rpc.message)}`,
      { agentUrl: site.agentUrl, rpcCode: rpc.code, cause: error },
    );
  }

  const message = error instanceof Error ? error.message : String(error);
  const status = httpStatus(error, message);
  if (status !== undefined) {
    return new A2ACallError(
      "a2a.http_error",
      `${where} answered ${site.operation} with HTTP ${status}: ${clean(truncate(message))}`,
      { agentUrl: site.agentUrl, httpStatus: status, cause: error },
    );
  }
  return new A2ACallError("a2a.failed", `${where} failed ${site.operation}: ${clean(errorDetail(error))}`, {
    agentUrl: site.agentUrl,
    cause: error,
  });
}

function rpcError(error: unknown): { code: number; name: string; message: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { envelopeCode?: unknown }).envelopeCode;
  if (typeof code !== "number") return undefined;
  return { code, name: error.name, message: error.message };
}

function httpStatus(error: unknown, message: string): number | undefined {
  const status = httpStatusOf(error);
  if (status !== undefined) return status;
  // The SDK only reports HTTP failures inside the message text.
  const match = /Status: (\d{3})|establishing stream for \w+: (\d{3})|Agent Card from \S+: (\d{3})/.exec(
    message,
  );
  const digits = match?.[1] ?? match?.[2] ?? match?.[3];
  return digits ? Number(digits) : undefined;
}

/** The message with its causes (`fetch failed: bad port`), shortened; not yet scrubbed. */
export function errorDetail(error: unknown): string {
  const messages: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 4; depth++) {
    const text = current instanceof Error ? current.message : String(current);
    if (text && !messages.includes(text)) messages.push(text);
    current = current instanceof Error ? current.cause : undefined;
  }
  return truncate(messages.join(": "));
}

function truncate(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
