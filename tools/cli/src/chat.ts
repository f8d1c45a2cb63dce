import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline/promises";
import { type AgentConnection, decisionWord, type SendInput } from "@switchboard/a2a-client";
import type { CliOptions } from "./args.js";
import { CHAT_HELP, readChatLine } from "./commands.js";
import { Output, styleFor, TurnPrinter } from "./render.js";
import { describeProblem, openConnection, runTurn } from "./session.js";

export interface ChatIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** The conversation the next line goes to, and the task waiting for an answer, if any. */
interface ChatState {
  contextId: string;
  pendingTaskId?: string;
  /** The pending confirmation's hashes of the arguments it showed, sent back with a yes or no. */
  pendingArgsHashes?: string[];
}

/**
 * The interactive chat: one turn per line on one conversation (`/new` starts another), streaming
 * progress and the answer. A failed turn is reported and the prompt comes back.
 */
export async function chat(options: CliOptions, io: ChatIo): Promise<number> {
  const out = new Output(io.stdout, styleFor(io.stdout, io.env));
  let connection: AgentConnection;
  try {
    connection = await openConnection(options);
  } catch (error) {
    const stderr = new Output(io.stderr, styleFor(io.stderr, io.env));
    stderr.line(stderr.style.red(describeProblem(error, options.url)));
    return 1;
  }

  const state: ChatState = { contextId: options.contextId ?? randomUUID() };
  out.line(out.style.dim(`Connected to ${connection.card.name} at ${options.url}. ${CHAT_HELP}`));
  out.line(`conversation ${out.style.bold(state.contextId)}`);

  // In a terminal readline echoes and edits the line; from a pipe the prompt is written like any output.
  const terminal = io.stdin.isTTY === true && io.stdout.isTTY === true;
  const rl = createInterface({ input: io.stdin, ...(terminal ? { output: io.stdout, terminal } : {}) });
  let running: AbortController | undefined;
  rl.on("SIGINT", () => (running ? running.abort() : rl.close()));
  const lines = rl[Symbol.asyncIterator]();
  try {
    for (;;) {
      const prompt = state.pendingTaskId ? "answer› " : "› ";
      if (terminal) {
        rl.setPrompt(out.style.bold(prompt));
        rl.prompt();
      } else {
        out.write(prompt);
      }
      const next = await lines.next();
      if (next.done) {
        if (terminal) out.write("\n"); // Ctrl-D leaves the cursor after the prompt
        break;
      }
      const line = readChatLine(next.value);
      if (line.kind === "quit") break;
      if (line.kind === "help") {
        out.line(out.style.dim(CHAT_HELP));
        continue;
      }
      if (line.kind === "new") {
        state.contextId = randomUUID();
        delete state.pendingTaskId;
        out.line(`conversation ${out.style.bold(state.contextId)}`);
        continue;
      }
      if (!line.text) continue;
      running = new AbortController();
      await turn(connection, line.text, state, out, options.url, running.signal);
      running = undefined;
    }
  } finally {
    rl.close();
  }
  out.endLine();
  return 0;
}

async function turn(
  connection: AgentConnection,
  text: string,
  state: ChatState,
  out: Output,
  url: string,
  signal: AbortSignal,
): Promise<void> {
  const printer = new TurnPrinter({ answer: out, progress: out, problems: out, self: connection.card.name });
  const input: SendInput = { text, contextId: state.contextId, signal };
  if (state.pendingTaskId) {
    input.taskId = state.pendingTaskId;
    // An exact yes or no goes as an explicit decision too; any other line is the user's words.
    const decision = decisionWord(text);
    if (decision) input.decision = decision;
    // The arguments the question showed: the decision holds for exactly those.
    if (decision && state.pendingArgsHashes) input.argsHashes = state.pendingArgsHashes;
  }
  let taskId: string | undefined;
  try {
    const result = await runTurn(connection, input, (event) => {
      if (event.kind === "task") taskId = event.taskId;
      printer.onEvent(event);
    });
    printer.finish(result);
    if (result.contextId && result.contextId !== state.contextId) {
      state.contextId = result.contextId;
      out.line(`conversation ${out.style.bold(state.contextId)}`);
    }
    if (result.state === "input-required") {
      state.pendingTaskId = result.taskId;
      if (result.argsHashes) state.pendingArgsHashes = result.argsHashes;
      else delete state.pendingArgsHashes;
    } else {
      delete state.pendingTaskId;
      delete state.pendingArgsHashes;
    }
  } catch (error) {
    out.line(out.style.red(`✗ ${describeProblem(error, url)}`));
    // Ctrl-C stops reading; the agent should stop working too.
    if (signal.aborted && taskId) await connection.cancel(taskId).catch(() => undefined);
  }
}
