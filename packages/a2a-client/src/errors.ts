import { SwitchboardError } from "@switchboard/common";

export type A2ACallErrorCode =
  | "a2a.unreachable"
  | "a2a.timeout"
  | "a2a.card_unavailable"
  | "a2a.rpc_error"
  | "a2a.http_error"
  | "a2a.failed";

/** A failed call to an A2A agent. The message names the agent URL and the reason, never a credential. */
export class A2ACallError extends SwitchboardError {
  declare readonly code: A2ACallErrorCode;
  readonly agentUrl: string;
  /** The JSON-RPC error code when the agent answered with one (e.g. -32001 task not found). */
  readonly rpcCode?: number;
  /** The HTTP status when the agent answered with a non-2xx status. */
  readonly httpStatus?: number;
  /** The network error code (ECONNREFUSED, ENOTFOUND, …) when the agent could not be reached. */
  readonly networkCode?: string;

  constructor(
    code: A2ACallErrorCode,
    message: string,
    details: {
      agentUrl: string;
      rpcCode?: number;
      httpStatus?: number;
      networkCode?: string;
      cause?: unknown;
    },
  ) {
    super(code, "third-party", message, { cause: details.cause });
    this.agentUrl = details.agentUrl;
    if (details.rpcCode !== undefined) this.rpcCode = details.rpcCode;
    if (details.httpStatus !== undefined) this.httpStatus = details.httpStatus;
    if (details.networkCode !== undefined) this.networkCode = details.networkCode;
  }
}

export function isA2ACallError(error: unknown): error is A2ACallError {
  return error instanceof A2ACallError;
}
