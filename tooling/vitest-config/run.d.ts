export interface RunLoggedOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Each line the command prints, stdout and stderr alike. */
  log: (line: string) => void;
  /** What the command is run for, named when it cannot start ("build helm"). */
  purpose?: string;
  /** What to install or set when the command cannot start. */
  missingHint?: string;
  /** What to check when it exits non-zero. */
  failedHint?: string;
}

/**
 * Runs a command a test set-up needs, logging its output; rejects with what ran, its exit code,
 * the end of its output and the hint.
 */
export function runLogged(command: string, args: string[], options: RunLoggedOptions): Promise<void>;
