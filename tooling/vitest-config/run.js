// What a test set-up runs (building a venv, helm, CAIPE's environment): a command whose output goes
// to `log` line by line, and whose failure says what ran, its exit code, the last of its output and
// what to check, so a set-up that breaks on CI explains itself; and the lock parallel set-ups share.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { lock } from "proper-lockfile";

/** How much of a failed command's output its error keeps. */
const TAIL_CHARS = 6000;

export function runLogged(command, args, { cwd, env, log, purpose, missingHint, failedHint }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let tail = "";
    const collect = (chunk) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-TAIL_CHARS);
      for (const line of text.split("\n")) if (line.trim()) log(line);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const why = purpose ? ` to ${purpose}` : "";
    child.on("error", (error) =>
      reject(
        new Error(
          `Cannot run \`${command}\`${why}: ${error.message}.${missingHint ? ` ${missingHint}` : ""}`,
        ),
      ),
    );
    child.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `\`${command} ${args.join(" ")}\` failed (exit ${code}).${failedHint ? ` ${failedHint}` : ""}\n${tail.trim()}`,
            ),
          ),
    );
  });
}

const LOCK_POLL_MS = 250;
/** A lock left by a killed process is taken over after this. */
const LOCK_STALE_MS = 30_000;

/**
 * Runs a set-up step (a build into `dir`) holding a lock folder beside it (`<dir>.lock`), so that
 * parallel test processes take turns; waits up to `waitMinutes` for another process's turn.
 */
export async function withSetupLock(dir, waitMinutes, work) {
  mkdirSync(dirname(dir), { recursive: true });
  const release = await lock(dir, {
    lockfilePath: `${dir}.lock`,
    realpath: false,
    stale: LOCK_STALE_MS,
    retries: {
      retries: (waitMinutes * 60_000) / LOCK_POLL_MS,
      minTimeout: LOCK_POLL_MS,
      maxTimeout: LOCK_POLL_MS,
    },
  });
  try {
    return await work();
  } finally {
    await release();
  }
}
