// A command a test set-up runs (building a venv, helm, CAIPE's environment): its output goes to
// `log` line by line, and a failure says what ran, its exit code, the last of its output and what
// to check, so a set-up that breaks on CI explains itself.
import { spawn } from "node:child_process";

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
