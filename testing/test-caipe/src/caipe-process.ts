import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";

/** A running CAIPE Python process. */
export interface CaipeProcess {
  url: string;
  port: number;
  pid: number;
  /** Everything it printed, stdout and stderr, for assertions and failure messages. */
  logs(): string;
  stop(): Promise<void>;
}

export interface StartCaipeOptions {
  /** The venv interpreter. */
  python: string;
  /** The module `python -m` runs, and its arguments. */
  module: string;
  args: string[];
  cwd: string;
  port: number;
  env: Record<string, string | undefined>;
  label: string;
  startTimeoutMs?: number;
  /**
   * Ready once this path answers with any HTTP status (a server that is not an A2A agent, such as
   * an MCP server); default: once the agent card answers 200.
   */
  listeningPath?: string;
}

/**
 * Runs `python -m <module> <args>` as CAIPE's images do, through `runpy` (the same as `-m`) behind a
 * guard thread that ends the process when its stdin closes: when the test process dies, even by
 * SIGKILL, no CAIPE server is left behind. Ready once its agent card answers (or, with
 * `listeningPath`, once that path answers at all).
 */
export async function startCaipeProcess(options: StartCaipeOptions): Promise<CaipeProcess> {
  const guard = [
    "import os, runpy, sys, threading",
    "threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()",
    `sys.argv = [${JSON.stringify(options.module)}, *sys.argv[1:]]`,
    `runpy.run_module(${JSON.stringify(options.module)}, run_name="__main__", alter_sys=True)`,
  ].join("\n");
  const child = spawn(options.python, ["-c", guard, ...options.args], {
    cwd: options.cwd,
    env: { PYTHONUNBUFFERED: "1", PYTHONDONTWRITEBYTECODE: "1", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-400_000);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const url = `http://127.0.0.1:${options.port}`;
  const stop = () => stopProcess(child);
  const deadline = Date.now() + (options.startTimeoutMs ?? 180_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${options.label} exited during start-up:\n${output.slice(-6000)}`);
    }
    try {
      const path = options.listeningPath ?? "/.well-known/agent.json";
      const response = await fetch(`${url}${path}`);
      if (response.ok || options.listeningPath)
        return { url, port: options.port, pid: child.pid ?? -1, logs: () => output, stop };
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  await stop();
  throw new Error(`${options.label} did not answer on ${url} in time:\n${output.slice(-6000)}`);
}

function stopProcess(child: ChildProcessByStdio<Writable, Readable, Readable>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolve();
    });
    child.stdin.end();
  });
}
