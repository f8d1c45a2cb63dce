import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { join } from "node:path";

/** Where programs are looked for: the usual system folders (the agent's image, a developer's machine). */
const PROGRAM_DIRS = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"];

/** The path of a program if it is installed (ping, traceroute, tracepath). */
export async function findProgram(name: string, dirs = PROGRAM_DIRS): Promise<string | undefined> {
  for (const dir of dirs) {
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
