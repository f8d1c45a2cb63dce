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

/**
 * Runs a set-up step (a build into `dir`) holding a lock folder beside it (`<dir>.lock`), so that
 * parallel test processes take turns; waits up to `waitMinutes` for another process's turn. A lock
 * left by a killed process is taken over after 30 s.
 */
export function withSetupLock<T>(dir: string, waitMinutes: number, work: () => Promise<T>): Promise<T>;
