import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthenticatedCaller } from "../auth/caller.js";
import type { Principal } from "../authz/principal.js";

/** Progress a tool reports while it runs, streamed to the caller as A2A status updates. */
export interface Progress {
  text: string;
  metadata?: Record<string, unknown>;
}

/**
 * What a tool may need to know about the turn it runs in. Kept out of LangGraph's config so
 * nothing here (the caller's token above all) is ever written into a checkpoint.
 */
export interface TurnContext {
  contextId: string;
  taskId: string;
  threadId: string;
  /**
   * The caller's identity-provider token, when they came with one (not with a supervisor's hop
   * token): what a vendor trusting that provider may be handed (AWS web identity,
   * FORWARD_JWT_TO_MCP). Never forwarded to another agent; never persisted or logged.
   */
  token?: string;
  /**
   * The verified caller (and approver), for the supervisor to sign each subagent a token of its own
   * (auth/hop-token.ts). Never persisted or logged.
   */
  caller?: AuthenticatedCaller;
  /** Who is asking, from the verified token (the local principal when anonymous): what policies decide on. */
  principal?: Principal;
  /**
   * Someone other than the caller answering the caller's question, from their own verified token
   * (auth/bearer.ts' APPROVER_HEADER): the token goes on with the hop that carries the answer, and
   * a change they approved is audited as confirmed by them. Never persisted or logged.
   */
  approver?: { principal: Principal; token: string };
  /**
   * The user's memories a supervisor passed on with this hop (memory/passed-on.ts): sent with the
   * user's message in this turn's model calls only, never persisted or logged.
   */
  passedOnMemories?: string;
  report(progress: Progress): void;
  /**
   * Passes answer text on to the caller as it is written, appended to the turn's answer (a hop
   * forwarding a subagent's answer as it streams); the turn's final answer still replaces it at the
   * end. Absent when the caller reads only the final answer (a blocking send, an A2A 0.3 caller),
   * and outside an agent's executor.
   */
  streamAnswer?(text: string): void;
  /**
   * Resolves once every write the turn's graph has asked for so far is stored, and rejects with one
   * that failed: the graph stores each step while the next runs (write-barrier.ts). A LangChain
   * tool and a model's answer wait for it by themselves; a graph node that acts by other means (a
   * subagent hop) awaits it first, so what led to the action is on record before it happens.
   */
  stored(): Promise<void>;
  signal: AbortSignal;
}

/**
 * One store for the process, holding nothing itself: each turn runs in its own async context
 * (`runInTurn`), so turns of several agents in one process never see each other's, and a tool
 * reaches its turn (`currentTurn()`) without it passing through LangChain's config.
 */
const storage = new AsyncLocalStorage<TurnContext>();

export function runInTurn<T>(context: TurnContext, run: () => Promise<T>): Promise<T> {
  return storage.run(context, run);
}

/** The turn the calling tool runs in; throws when called outside a turn. */
export function currentTurn(): TurnContext {
  const context = storage.getStore();
  if (!context) throw new Error("currentTurn() called outside an agent turn");
  return context;
}

/** The turn the caller runs in, or undefined outside one (a callback from a socket, a timer). */
export function turnIfAny(): TurnContext | undefined {
  return storage.getStore();
}
