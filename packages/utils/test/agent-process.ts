import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "fixtures");

export interface TurnOutput {
  agent: Record<string, unknown>;
  state: Record<string, unknown>;
  stderr: string;
}

/** Env for a fixture process: the test's settings, none of the package-script variables. */
export function fixtureEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LOG_LEVEL: "warn", ...extra };
  return env;
}

/** Runs one turn of a fixture agent in its own node process and parses what it printed. */
export function runFixtureTurn(
  fixture: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { hold?: boolean; onChild?: (child: ChildProcess) => void } = {},
): Promise<TurnOutput> {
  const child = spawn(
    process.execPath,
    [join(fixturesDir, fixture, "main.mjs"), ...args, ...(options.hold ? ["--hold"] : [])],
    {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  options.onChild?.(child);
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    let agent: Record<string, unknown> | undefined;
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const line of stdout.split("\n")) {
        if (line.startsWith("AGENT ")) agent = JSON.parse(line.slice(6));
        if (line.startsWith("STATE ") && agent) resolve({ agent, state: JSON.parse(line.slice(6)), stderr });
      }
    });
    child.on("close", (code) => reject(new Error(`${fixture} exited with ${code}:\n${stdout}\n${stderr}`)));
  });
}
