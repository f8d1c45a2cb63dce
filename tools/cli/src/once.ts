import { randomUUID } from "node:crypto";
import { decisionWord, type SendInput, type TurnResult, type TurnState } from "@switchboard/a2a-client";
import type { CliOptions } from "./args.js";
import { Output, styleFor, TurnPrinter } from "./render.js";
import { describeProblem, openConnection, runTurn } from "./session.js";

export interface OnceIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
}

/** What `--json` prints. */
export interface JsonAnswer {
  contextId: string;
  taskId: string;
  state: TurnState;
  text: string;
  question?: string;
}

/** Exit codes for scripts: 0 answered, 2 the agent asks something, 1 anything else. */
export function exitCodeFor(state: TurnState): number {
  if (state === "completed") return 0;
  if (state === "input-required" || state === "auth-required") return 2;
  return 1;
}

/** `--message`: one turn, the answer on stdout, progress on stderr with `--verbose`. */
export async function sendOnce(options: CliOptions, message: string, io: OnceIo): Promise<number> {
  const contextId = options.contextId ?? randomUUID();
  const stdout = new Output(io.stdout, styleFor(io.stdout, io.env));
  const stderr = new Output(io.stderr, styleFor(io.stderr, io.env));
  const printJson = (answer: JsonAnswer) => io.stdout.write(`${JSON.stringify(answer)}\n`);

  let result: TurnResult;
  try {
    const connection = await openConnection(options);
    const printer = new TurnPrinter({
      problems: stderr,
      ...(options.json ? {} : { answer: stdout }),
      self: connection.card.name,
      ...(options.verbose ? { progress: stderr } : {}),
    });
    const input: SendInput = { text: message, contextId };
    if (options.taskId) {
      input.taskId = options.taskId;
      // An exact yes or no answers a confirmation as an explicit decision too.
      const decision = decisionWord(message);
      if (decision) input.decision = decision;
    }
    result = await runTurn(connection, input, (event) => printer.onEvent(event));
    printer.finish(result);
  } catch (error) {
    const problem = describeProblem(error, options.url);
    stderr.line(stderr.style.red(problem));
    if (options.json) printJson({ contextId, taskId: options.taskId ?? "", state: "failed", text: problem });
    return 1;
  }

  const answer: JsonAnswer = {
    contextId: result.contextId || contextId,
    taskId: result.taskId,
    state: result.state,
    text: result.text,
  };
  if (result.question !== undefined) answer.question = result.question;
  if (options.json) {
    printJson(answer);
  } else if (answer.question !== undefined) {
    stderr.line(
      stderr.style.dim(
        `Answer with: switchboard --context ${answer.contextId} --task ${answer.taskId} --message "yes"`,
      ),
    );
  }
  return exitCodeFor(result.state);
}
