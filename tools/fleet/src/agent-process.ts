import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { AGENT_NODE_ARGS, READY_CHANNEL_ENV, readyMessage } from "@switchboard/contract";

/** An agent package running as its own node process, as `pnpm start` runs it. */
export interface AgentProcess {
  /** Loopback URL of the port it bound. */
  url: string;
  port: number;
  pid: number;
  /** Everything it printed so far. */
  logs(): string;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>;
  /** Sends a signal (SIGKILL by default: a crash) and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface AgentProcessOptions {
  /** The whole environment of the process (PATH included). */
  env: NodeJS.ProcessEnv;
  /** Called with each line it prints, as it prints it. */
  onLine?: (line: string) => void;
  /** How long to wait for it to say it is ready (the runtime's message over IPC). */
  timeoutMs?: number;
  /** The entry script relative to the package; default dist/index.js. */
  entry?: string;
  /** Options for node itself, e.g. ["--import", "tsx"] to run a TypeScript entry. */
  nodeArgs?: string[];
  /**
   * The node options every agent ships with, before `nodeArgs`: default AGENT_NODE_ARGS (as the
   * image's CMD); [] runs node with its own defaults (benches compare the two).
   */
  agentNodeArgs?: readonly string[];
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/**
 * Starts `node <AGENT_NODE_ARGS> <packageDir>/dist/index.js` and resolves once the runtime says the agent is ready
 * (its ready message over the IPC channel carries the bound port); rejects with the output's tail
 * if it exits first.
 */
export function startAgentProcess(packageDir: string, options: AgentProcessOptions): Promise<AgentProcess> {
  const child = spawn(
    process.execPath,
    [
      ...(options.agentNodeArgs ?? AGENT_NODE_ARGS),
      ...(options.nodeArgs ?? []),
      join(packageDir, options.entry ?? "dist/index.js"),
    ],
    {
      cwd: packageDir,
      env: { ...options.env, [READY_CHANNEL_ENV]: "ipc" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    },
  );
  running.add(child);
  let output = "";
  let partial = "";
  let port: number | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once("close", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const onData = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-200_000);
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) options.onLine?.(line);
  };
  child.on("message", (message) => {
    port ??= readyMessage(message)?.port;
  });
  child.stdout?.on("data", onData);
  child.stderr?.on("data", onData);

  return new Promise((resolve, reject) => {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    const poll = setInterval(() => {
      if (port !== undefined) {
        clearInterval(poll);
        resolve(handle(port));
      } else if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
        clearInterval(poll);
        child.kill("SIGKILL");
        const why =
          child.exitCode !== null ? `exited with code ${child.exitCode}` : "did not become ready in time";
        reject(new Error(`The agent in ${packageDir} ${why}. Last output:\n${tail(output)}`));
      }
    }, 25);
  });

  function handle(boundPort: number): AgentProcess {
    return {
      url: `http://127.0.0.1:${boundPort}`,
      port: boundPort,
      pid: child.pid as number,
      logs: () => output,
      exited,
      kill: async (signal = "SIGKILL") => {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        await exited;
      },
    };
  }
}

/** The last lines of some output, for error messages. */
export function tail(output: string, lines = 20): string {
  return output.trimEnd().split("\n").slice(-lines).join("\n");
}
