import type { AuthenticatedCaller } from "../auth/caller.js";
import type { Principal } from "../authz/principal.js";
import type { HopBudget } from "../turn/budget.js";

/** Progress a tool reports while it runs, streamed to the caller as A2A status updates. */
export interface Progress {
  text: string;
  metadata?: Record<string, unknown>;
}

/**
 * Structured data an agent adds to its final answer (an A2A data part beside the answer's text, on
 * the answer artifact and on the completed status's message): the supervisor's sources. Clients that
 * do not know it ignore it.
 */
export interface AnswerData {
  data: Record<string, unknown>;
  /** The part's metadata, e.g. `{ "switchboard/type": "sources" }`: what a client tells parts apart by. */
  metadata?: Record<string, unknown>;
}

/**
 * The turn one A2A message runs as, built by the executor (turn/executor.ts) and handed to the graph
 * as LangGraph's run context (`graph.stream(input, { context })`): never its `configurable`, whose
 * plain values LangGraph copies into each checkpoint's metadata, so nothing here (the caller's token
 * above all) is ever written into a checkpoint (test/auth.int.test.ts scans them).
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
  principal: Principal;
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
  /**
   * The turn's spend and the caller's budget for it (turn/budget.ts): what is left goes on with each
   * hop, and what the hop reports it spent is charged back.
   */
  budget?: HopBudget;
  report(progress: Progress): void;
  /**
   * Passes answer text on to the caller as it is written, appended to the turn's answer (a hop
   * forwarding a subagent's answer as it streams); the turn's final answer still replaces it at the
   * end. Absent when the caller reads only the final answer (a blocking send, an A2A 0.3 caller).
   */
  streamAnswer?(text: string): void;
  /**
   * Adds a part to this turn's final answer, made from the answer's text when the turn completes
   * (undefined: nothing to add), so it can say what the answer itself cites. Not called for a turn
   * that asks, fails or is canceled. Absent outside an executor's turn.
   */
  addToAnswer?(part: (answer: string) => AnswerData | undefined): void;
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
 * The running turn, as LangGraph hands its run context to a node (`config.context`) or to a
 * middleware (`request.runtime.context`): the one place the turn is read back from LangGraph's
 * runnable machinery. Undefined when the graph runs outside an executor's turn (a test driving it).
 */
export function turnOf(runnable: { context?: unknown } | undefined): TurnContext | undefined {
  const context = runnable?.context;
  return isTurn(context) ? context : undefined;
}

/** `turnOf`, for a graph node that cannot act outside a turn (a subagent hop). */
export function requireTurn(runnable: { context?: unknown } | undefined): TurnContext {
  const turn = turnOf(runnable);
  if (!turn) throw new Error("this graph node runs only inside an agent turn (no turn in its run context)");
  return turn;
}

function isTurn(value: unknown): value is TurnContext {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as TurnContext).threadId === "string" &&
    typeof (value as TurnContext).report === "function"
  );
}
