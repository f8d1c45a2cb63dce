import type { Logger } from "@switchboard/common";
import type { AnswerSource } from "./sources.js";

/** Task states in the A2A v0.3 spelling, which is also how CAIPE's Python agents and logs name them. */
export type TurnState =
  | "submitted"
  | "working"
  | "input-required"
  | "auth-required"
  | "completed"
  | "failed"
  | "canceled"
  | "rejected"
  | "unknown";

/** What a caller needs from one turn with an agent, without the SDK's proto types. */
export interface TurnResult {
  taskId: string;
  contextId: string;
  state: TurnState;
  /** The answer: the artifacts' text, else the status message's text. */
  text: string;
  /** The agent's question when `state` is `input-required` (or `auth-required`). */
  question?: string;
  /** A confirmation's hashes of the arguments it shows: send them with the decision (`SendInput.argsHashes`). */
  argsHashes?: string[];
  /** The text of each artifact, in order. */
  artifacts: string[];
  /** The documents the answer drew on, when the agent listed them (the supervisor's knowledge search). */
  sources?: AnswerSource[];
  /**
   * The metadata of the turn's status updates, merged as the agent merges them into its task (the
   * task's, for a blocking send): what the agent says of the task, such as the spend of its latest
   * turn (agent-runtime's SPEND_METADATA_KEY). The agent's word only.
   */
  metadata?: Record<string, unknown>;
}

/** One streamed update, small enough for a CLI or the supervisor to render. */
export type TurnEvent =
  | { kind: "task"; taskId: string; contextId: string; state: TurnState }
  | {
      kind: "status";
      taskId: string;
      state: TurnState;
      text?: string;
      metadata?: Record<string, unknown>;
      /** A confirmation's hashes of the arguments it shows (see TurnResult). */
      argsHashes?: string[];
      sources?: AnswerSource[];
    }
  | {
      kind: "artifact";
      taskId: string;
      /** Lets a renderer tell a streamed chunk (CAIPE: `streaming_result`) from a final one. */
      name: string;
      artifactId: string;
      text: string;
      append: boolean;
      lastChunk: boolean;
      sources?: AnswerSource[];
    }
  | { kind: "message"; text: string; sources?: AnswerSource[] };

export interface AgentSkillSummary {
  id: string;
  name: string;
  description: string;
  examples: string[];
  tags: string[];
}

/** The parts of an agent card a router or a person looks at. */
export interface AgentCardSummary {
  name: string;
  description: string;
  skills: AgentSkillSummary[];
  /** The endpoint this connection talks to (the chosen interface's URL). */
  url: string;
  /** The wire version in use: `1.0`, or `0.3` for legacy agents. */
  protocolVersion: string;
  /** Whether `stream()` gets live updates; without it `stream()` yields the finished turn. */
  streaming: boolean;
  /**
   * URLs the card named on another host (or outside the base path): not followed, every call goes to
   * the base URL the connection was made with. Worth a warning: the card is wrong, or dishonest.
   */
  ignoredUrls?: string[];
}

export interface ConnectOptions {
  /** Sent as `Authorization: Bearer <token>` on the card fetch and every call (a call's own token wins). */
  token?: string;
  /**
   * Sent instead of `token` on the card fetch alone: a credential that may read a card but names no
   * caller (the supervisor's directory token, for a team's agent on the dynamic-agents host).
   */
  cardToken?: string;
  /** Extra headers on the card fetch and every call. */
  headers?: Record<string, string>;
  /**
   * Limit for one call (send, getTask, cancel), for each card fetch attempt (capped at 10 s), and for
   * the silence between two streamed events. Default 300000 (LLM agents can think for minutes).
   */
  timeoutMs?: number;
  /** Card fetch retries after the first attempt (backoff 250 ms doubling, max 4 s). Default 5 (~8 s). */
  cardRetries?: number;
  fetchImpl?: typeof fetch;
  /** Where card retries are logged (info); defaults to the process logger. */
  logger?: Logger;
}

export interface SendInput {
  text: string;
  /** The conversation id; forwarded verbatim and as `metadata.context_id`. Generated when absent with no taskId. */
  contextId?: string;
  /** Continue this task (the follow-up to an `input-required` turn). */
  taskId?: string;
  /**
   * An explicit decision on the change the task asks about, sent as a data part
   * `{ "decision": … }` beside the text (none when the text is empty): what Approve and Decline send.
   */
  decision?: "approve" | "decline";
  /** With `decision`: the question's `argsHashes`, so the decision holds only for the arguments shown. */
  argsHashes?: string[];
  metadata?: Record<string, unknown>;
  /** Overrides the connection token for this call, e.g. the supervisor's caller's token. */
  token?: string;
  /** Headers for this call on top of the connection's, e.g. the A2A extensions it asks for. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface CallOptions {
  /** Same as `SendInput.token`; tasks are scoped per caller, so use the token that created the task. */
  token?: string;
  signal?: AbortSignal;
}

export interface AgentConnection {
  readonly card: AgentCardSummary;
  /** The base URL given to `connectAgent`. */
  readonly baseUrl: string;
  send(input: SendInput): Promise<TurnResult>;
  stream(input: SendInput): AsyncIterable<TurnEvent>;
  getTask(taskId: string, options?: CallOptions): Promise<TurnResult>;
  cancel(taskId: string, options?: CallOptions): Promise<TurnResult>;
}
