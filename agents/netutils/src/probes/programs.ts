import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join } from "node:path";

/** The path of a program on PATH, if it is installed (ping, traceroute, tracepath). */
export async function findProgram(name: string, path = process.env.PATH ?? ""): Promise<string | undefined> {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    const usable = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (usable) return candidate;
  }
  return undefined;
}

/** Runs a program with arguments (no shell); its output, or the error with its output. */
export function runProgram(
  file: string,
  args: string[],
  timeoutMs: number,
): Promise<{ output: string; code: number }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ output: `${stdout}${stderr}`.trim(), code });
    });
  });
}
