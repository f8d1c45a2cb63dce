import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../bin/switchboard.js", import.meta.url));
const BUILT = fileURLToPath(new URL("../dist/main.js", import.meta.url));

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of the child: no SWITCHBOARD_* settings leak in from the developer's shell. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of Object.keys(env)) {
    if (key.startsWith("SWITCHBOARD_") && !(key in extra)) delete env[key];
  }
  return env;
}

function start(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  if (!existsSync(BUILT)) throw new Error("tools/cli is not built: run pnpm --filter @switchboard/cli build");
  return spawn(process.execPath, [BIN, ...args], { env: childEnv(env), stdio: "pipe" });
}

/** Runs the built `switchboard` bin to the end (stdin closed) and returns what it printed. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  const child = start(args, env);
  child.stdin.end();
  return collect(child);
}

function collect(child: ChildProcessWithoutNullStreams): Promise<Finished> {
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The interactive chat driven through pipes: write lines, wait for what it prints. */
export class InteractiveCli {
  readonly exited: Promise<Finished>;
  private readonly child: ChildProcessWithoutNullStreams;
  private output = "";
  private cursor = 0;
  private readonly waiters = new Set<() => void>();

  constructor(args: string[], env: Record<string, string> = {}) {
    this.child = start(args, env);
    this.exited = collect(this.child);
    this.child.stdout.on("data", (chunk: string) => {
      this.output += chunk;
      for (const wake of this.waiters) wake();
    });
  }

  /** Everything printed to stdout so far. */
  get stdout(): string {
    return this.output;
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Closes stdin, as Ctrl-D does in a terminal. */
  endInput(): void {
    this.child.stdin.end();
  }

  /** Waits until stdout, after the previous match, matches `pattern`; returns the match. */
  async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
    const found = () => {
      const match = new RegExp(pattern.source, pattern.flags.replace("g", "")).exec(
        this.output.slice(this.cursor),
      );
      if (match) this.cursor += match.index + match[0].length;
      return match;
    };
    let match = found();
    if (match) return match;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no ${pattern} in the CLI's output within ${timeoutMs} ms:\n${this.output}`));
      }, timeoutMs);
      const check = () => {
        match = found();
        if (!match) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(match);
      };
      this.waiters.add(check);
      this.child.once("close", () => {
        if (!this.waiters.has(check)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        reject(new Error(`the CLI exited before printing ${pattern}:\n${this.output}`));
      });
    });
  }

  kill(): void {
    this.child.kill();
  }
}
