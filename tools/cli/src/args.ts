import { parseArgs } from "node:util";

export const DEFAULT_URL = "http://localhost:8000";

export const USAGE = `Usage: switchboard [options]

Chat with the Switchboard supervisor (or any A2A agent) in the terminal.

Options:
  --url <url>          agent to talk to (default ${DEFAULT_URL}, env SWITCHBOARD_URL)
  --token <token>      bearer token sent on every call (env SWITCHBOARD_TOKEN)
  --context <id>       resume the conversation with this id
  -m, --message <text> send one message, print the answer and exit (for scripts)
  --task <id>          with --message: answer the question of this task (a confirmation)
  --json               with --message: print {contextId, taskId, state, text, question?}
  -v, --verbose        with --message: print progress to stderr
  -h, --help           show this help

In the chat: /new starts a new conversation, /quit or Ctrl-D leaves; every other line goes to the
agent, /<tool> commands too (//<text> sends /<text>).
Exit codes with --message: 0 completed, 2 the agent asks a question (input-required), 1 failed.`;

export interface CliOptions {
  url: string;
  token?: string;
  contextId?: string;
  /** Set: one message, non-interactive. */
  message?: string;
  taskId?: string;
  json: boolean;
  verbose: boolean;
}

export type ParsedArgs = { kind: "help" } | { kind: "run"; options: CliOptions };

/** A mistake on the command line; the message says which option and how to fix it. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ParsedArgs {
  let values: ReturnType<typeof parse>["values"];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { kind: "help" };

  const url = (values.url ?? nonEmpty(env.SWITCHBOARD_URL) ?? DEFAULT_URL).trim();
  if (!/^https?:\/\/[^/\s]+/i.test(url)) {
    throw new UsageError(`--url must be an http(s) URL such as ${DEFAULT_URL}, got "${url}"`);
  }
  if (values.message === undefined) {
    for (const flag of ["json", "task"] as const) {
      if (values[flag] !== undefined && values[flag] !== false) {
        throw new UsageError(`--${flag} only works with --message "<text>"`);
      }
    }
  } else if (values.message.trim() === "") {
    throw new UsageError("--message needs some text");
  }

  const options: CliOptions = { url, json: values.json ?? false, verbose: values.verbose ?? false };
  const token = values.token ?? nonEmpty(env.SWITCHBOARD_TOKEN);
  if (token) options.token = token;
  if (values.context !== undefined) options.contextId = required(values.context, "--context");
  if (values.message !== undefined) options.message = values.message;
  if (values.task !== undefined) options.taskId = required(values.task, "--task");
  return { kind: "run", options };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      url: { type: "string" },
      token: { type: "string" },
      context: { type: "string" },
      message: { type: "string", short: "m" },
      task: { type: "string" },
      json: { type: "boolean" },
      verbose: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
    },
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

function required(value: string, flag: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new UsageError(`${flag} needs a value`);
  return trimmed;
}
