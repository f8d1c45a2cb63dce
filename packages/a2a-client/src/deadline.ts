/**
 * An abort signal for one call: fires after `timeoutMs` of silence (call `touch()` on progress)
 * or when the caller's signal aborts. `timedOut` tells our deadline from the caller's abort.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fired = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    this.signal = callerSignal
      ? AbortSignal.any([this.controller.signal, callerSignal])
      : this.controller.signal;
    this.touch();
  }

  get timedOut(): boolean {
    return this.fired;
  }

  get callerAborted(): boolean {
    return this.callerSignal?.aborted === true;
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new DOMException(`no answer within ${this.timeoutMs} ms`, "TimeoutError"));
    }, this.timeoutMs);
    // In Node the deadline keeps no process alive; browsers' timers have no unref (nor need one).
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Stops the timer and aborts whatever is still open (an SSE body the consumer stopped reading). */
  close(): void {
    clearTimeout(this.timer);
    if (!this.controller.signal.aborted) this.controller.abort();
  }
}
