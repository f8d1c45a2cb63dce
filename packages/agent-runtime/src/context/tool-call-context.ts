import type { Principal } from "../authz/principal.js";
import type { Progress, TurnContext } from "./turn-context.js";

/** The caller's own token for one vendor, chosen for one tool call by its guard. */
export interface CallCredential {
  vendor: string;
  token: string;
  /** The caller's email from their verified token (vendors whose tokens go with an account name). */
  email?: string;
}

/**
 * What one tool call runs with, built once where the call is guarded (graph/guard-calls.ts) and
 * passed to the tool's `run(args, ctx)`: on to a VendorClient's `call(ctx, …)`, an MCP server's
 * session, AWS's user role. Held by the call alone: never in LangGraph's config or state, so it
 * cannot reach a checkpoint, and two turns' calls never see each other's.
 */
export interface ToolCallContext {
  /** Who is asking, from the verified token (the local principal when anonymous). */
  principal: Principal;
  /** The caller's linked token for this agent's vendor, when the guard chose it over the service's. */
  credential?: CallCredential;
  /**
   * The caller's identity-provider token, when they came with one (AWS web identity,
   * FORWARD_JWT_TO_MCP): never forwarded to another agent, never persisted or logged.
   */
  token?: string;
  /** The conversation (A2A contextId and the checkpoint thread it is stored on) and the A2A task. */
  contextId?: string;
  threadId?: string;
  taskId?: string;
  /** Progress while the tool runs, streamed to the caller as working-status updates. */
  report(progress: Progress): void;
  /** Aborted when the turn is canceled or the process stops. */
  signal: AbortSignal;
}

/** The call's context, from its turn (undefined: a graph driven outside a turn, e.g. a unit test). */
export function toolCallContext(
  turn: TurnContext | undefined,
  principal: Principal,
  credential: CallCredential | undefined,
  signal: AbortSignal | undefined,
): ToolCallContext {
  return {
    principal,
    ...(credential ? { credential } : {}),
    ...(turn?.token ? { token: turn.token } : {}),
    ...(turn ? { contextId: turn.contextId, threadId: turn.threadId, taskId: turn.taskId } : {}),
    report: turn ? (progress) => turn.report(progress) : () => undefined,
    signal: turn?.signal ?? signal ?? new AbortController().signal,
  };
}
