import { progressText, type TurnEvent, type TurnResult } from "@switchboard/a2a-client";

// The progress line is the same in every chat client; tests and callers read it from here too.
export { progressText };

export interface Style {
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

const plain: Style = { dim: (t) => t, bold: (t) => t, red: (t) => t, yellow: (t) => t };

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const colored: Style = { dim: ansi(2, 22), bold: ansi(1, 22), red: ansi(31, 39), yellow: ansi(33, 39) };

/** Colors only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  return stream.isTTY === true && !noColor ? colored : plain;
}

/**
 * A stream that knows whether its cursor is at the start of a line, so a progress line never lands
 * in the middle of an answer that is still streaming.
 */
export class Output {
  private atLineStart = true;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    readonly style: Style,
  ) {}

  write(text: string): void {
    if (!text) return;
    this.stream.write(text);
    this.atLineStart = text.endsWith("\n");
  }

  /** Writes `text` on a line of its own. */
  line(text: string): void {
    this.endLine();
    this.write(`${text}\n`);
  }

  endLine(): void {
    if (!this.atLineStart) this.write("\n");
  }
}

export interface PrinterOutputs {
  /** Where the answer and the agent's question go; none: only the caller prints the result. */
  answer?: Output;
  /** Where `… progress` lines go; none: progress is not shown. */
  progress?: Output;
  /** Where a failed turn's reason goes. */
  problems: Output;
  /** The agent's own name, so its own tool calls are not prefixed with it. */
  self?: string;
}

/**
 * Prints one turn as it streams: a dim line per status update, answer tokens as they arrive, and
 * at the end whatever the stream did not show (the final text, a question, a failure).
 */
export class TurnPrinter {
  private readonly printed = new Map<string, string>();

  constructor(private readonly out: PrinterOutputs) {}

  onEvent(event: TurnEvent): void {
    const progress = progressText(event, this.out.self);
    if (progress !== undefined) {
      this.out.progress?.line(this.out.progress.style.dim(`… ${progress}`));
      return;
    }
    if (event.kind === "artifact") this.onArtifact(event.artifactId, event.text, event.append);
    if (event.kind === "message") this.onArtifact("message", event.text, true);
  }

  finish(result: TurnResult): void {
    const { answer, problems } = this.out;
    switch (result.state) {
      case "completed":
        if (this.printed.size === 0) answer?.write(result.text);
        answer?.endLine();
        break;
      case "input-required":
      case "auth-required":
        answer?.line(answer.style.yellow(`? ${result.question || result.text}`));
        break;
      default: {
        answer?.endLine();
        const unfinished = result.state === "submitted" || result.state === "working";
        const reason = unfinished
          ? "the agent stopped streaming before the turn finished"
          : result.text || "the agent gave no reason";
        problems.line(problems.style.red(`✗ ${result.state}: ${reason}`));
      }
    }
  }

  private onArtifact(id: string, text: string, append: boolean): void {
    const { answer } = this.out;
    const before = this.printed.get(id);
    this.printed.set(id, before ?? "");
    if (!answer) return;
    // A new answer starts on its own line (after progress or an earlier artifact).
    if (before === undefined) answer.endLine();
    const shown = before ?? "";
    if (append) {
      answer.write(text);
      this.printed.set(id, shown + text);
    } else if (text.startsWith(shown)) {
      // The final chunk repeats the whole answer: print only what the tokens did not.
      answer.write(text.slice(shown.length));
      this.printed.set(id, text);
    } else {
      answer.line(text);
      this.printed.set(id, text);
    }
  }
}
