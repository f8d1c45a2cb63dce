import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { READY_CHANNEL_ENV, readyMessage } from "@switchboard/contract";

/** The web chat's server (tools/web), started from its build. */
export interface WebServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** What it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

/**
 * Starts tools/web's built server (dist/index.js) with only the given environment (and PATH), as a
 * pod would run it, except that it binds a free loopback port (PORT=0, HOST=127.0.0.1) and says
 * where over Node's IPC channel, as the contract's ready message does.
 */
export async function startWebServer(repoRoot: string, env: Record<string, string>): Promise<WebServer> {
  const packageDir = join(repoRoot, "tools", "web");
  const entry = join(packageDir, "dist", "index.js");
  if (!existsSync(entry) || !existsSync(join(packageDir, "dist", "public", "index.html"))) {
    throw new Error(
      `${entry} (or its page) is not built: pnpm exec turbo run build --filter=@switchboard/web (turbo runs it before this package's tests).`,
    );
  }
  const child = fork(entry, [], {
    cwd: packageDir,
    env: {
      PATH: process.env.PATH ?? "",
      ...env,
      PORT: "0",
      HOST: "127.0.0.1",
      [READY_CHANNEL_ENV]: "ipc",
    },
    execArgv: [],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };

  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The web chat did not start in ${START_TIMEOUT_MS} ms:\n${output}`)),
        START_TIMEOUT_MS,
      );
      child.on("message", (message) => {
        const ready = readyMessage(message);
        if (!ready) return;
        clearTimeout(timer);
        resolve(ready.port);
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`The web chat exited (${code ?? signal}) before it served:\n${output}`));
      });
    });
    return { url: `http://127.0.0.1:${port}`, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
