import { type ChildProcessByStdio, spawn } from "node:child_process";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import type { PythonEnv } from "./python-env.js";

/** A long-running Python peer that printed `listening <port>`. It exits when its stdin closes. */
export interface PythonPeer {
  port: number;
  pid: number;
  /** Closes the peer's stdin and waits for it to exit (SIGKILL after a grace period). */
  stop(): Promise<void>;
}

type PeerProcess = ChildProcessByStdio<Writable, Readable, Readable>;

export function pythonEnvVars(): NodeJS.ProcessEnv {
  // No __pycache__ beside the scripts in the work tree, and lines reach us as soon as they are printed.
  return { ...process.env, PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1" };
}

export async function startPythonPeer(
  env: PythonEnv,
  script: string,
  args: string[],
  { label, startTimeoutMs = 60_000 }: { label: string; startTimeoutMs?: number },
): Promise<PythonPeer> {
  // stdin stays a pipe we never write to: when this process dies, the pipe closes and the peer exits.
  const child = spawn(env.python, [join(env.scriptsDir, script), ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: pythonEnvVars(),
  });
  const port = await waitForListening(child, label, startTimeoutMs);
  return { port, pid: child.pid ?? -1, stop: () => stopPeer(child) };
}

function waitForListening(child: PeerProcess, label: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${message}${stderr ? `\n${stderr.trim()}` : ""}`));
    };
    const timer = setTimeout(() => fail(`${label} did not start within ${timeoutMs} ms.`), timeoutMs);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-6000);
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening (\d+)/.exec(stdout);
      if (match && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on("error", (error) => fail(`Could not start ${label}: ${error.message}`));
    child.on("exit", (code, signal) =>
      fail(`${label} exited during start-up (${signal ?? `code ${code}`}).`),
    );
  });
}

function stopPeer(child: PeerProcess): Promise<void> {
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
