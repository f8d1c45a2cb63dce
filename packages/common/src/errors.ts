/**
 * Who has to act on a failure:
 * - `user`: the request or configuration is wrong; the message says what to change.
 * - `system`: our side (a store, a process) failed; retrying later may help.
 * - `third-party`: an external service (an LLM provider, Jira, GitHub, AWS) refused or failed.
 */
export type ErrorCategory = "user" | "system" | "third-party";

/** The one error type Switchboard raises on purpose. Its message is safe to show to a person. */
export class SwitchboardError extends Error {
  override readonly name = "SwitchboardError";
  readonly category: ErrorCategory;
  /** A stable machine-readable code, e.g. `checkpointer.unreachable`. */
  readonly code: string;

  constructor(code: string, category: ErrorCategory, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.category = category;
  }
}

export function isSwitchboardError(error: unknown): error is SwitchboardError {
  return error instanceof SwitchboardError;
}
