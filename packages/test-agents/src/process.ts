import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";

/** An agent package running as its own node process, as `pnpm start` runs it. */
export interface AgentProcess {
  /** Loopback URL of the port it bound (PORT=0 picks a free one). */
  url: string;
  port: number;
  /** Everything it printed so far (JSON log lines). */
  logs(): string;
  /** Sends a signal (SIGKILL by default: a crash) and waits for the process to end. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  /** Extra environment on top of PATH; PORT defaults to 0. */
  env?: Record<string, string | undefined>;
  /** How long to wait for the "<agent> agent ready" log line. */
  timeoutMs?: number;
  /** The entry script relative to the package, default dist/index.js. */
  entry?: string;
}

const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

/** Starts `node <packageDir>/dist/index.js` and resolves once it logged that it is ready. */
export function startAgentProcess(packageDir: string, options: StartOptions = {}): Promise<AgentProcess> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...options.env };
  const child = spawn(process.execPath, [join(packageDir, options.entry ?? "dist/index.js")], {
    cwd: packageDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  const exited = new Promise<void>((resolve) =>
    child.once("close", () => {
      running.delete(child);
      resolve();
    }),
  );

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail("did not become ready"), options.timeoutMs ?? 30_000);
    function fail(reason: string) {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`Agent in ${packageDir} ${reason}. Its output:\n${output.slice(-4000)}`));
    }
    const onOutput = (chunk: Buffer) => {
      output += chunk.toString();
      const port = readyPort(output);
      if (port === undefined) return;
      clearTimeout(timer);
      child.stdout?.off("data", onOutput);
      child.stdout?.on("data", (more: Buffer) => {
        output += more.toString();
      });
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        logs: () => output,
        kill: async (signal = "SIGKILL") => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout?.on("data", onOutput);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("close", (code) => fail(`exited with code ${code} before it was ready`));
  });
}

function readyPort(output: string): number | undefined {
  for (const line of output.split("\n")) {
    if (!line.includes("agent ready")) continue;
    try {
      const entry = JSON.parse(line) as { port?: unknown };
      if (typeof entry.port === "number") return entry.port;
    } catch {
      // not a JSON log line
    }
  }
  return undefined;
}
