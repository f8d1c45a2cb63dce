import { ensurePythonEnv } from "./python-env.js";

/**
 * Vitest global setup: builds or checks the repo's .venv once, before test files start, so a cold
 * install (about a minute) is not charged to any test's hook timeout.
 */
export default async function setup(): Promise<void> {
  const started = Date.now();
  const env = await ensurePythonEnv({ onLog: (line) => process.stderr.write(`[python-env] ${line}\n`) });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(`[python-env] ${env.venvDir} ready in ${seconds}s\n`);
}
