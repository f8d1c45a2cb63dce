import { parseCliArgs, USAGE, UsageError } from "./args.js";
import { type ChatIo, chat } from "./chat.js";
import { sendOnce } from "./once.js";

const processIo: ChatIo = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
};

/** Runs `switchboard` with these arguments and returns the exit code. */
export async function main(argv: readonly string[], io: ChatIo = processIo): Promise<number> {
  let parsed: ReturnType<typeof parseCliArgs>;
  try {
    parsed = parseCliArgs(argv, io.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`switchboard: ${error.message}\nRun switchboard --help to see the options.\n`);
    return 1;
  }
  if (parsed.kind === "help") {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { options } = parsed;
  return options.message === undefined ? chat(options, io) : sendOnce(options, options.message, io);
}
