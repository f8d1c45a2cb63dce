import { ensurePythonEnv, testPythonEnvNames } from "./python-env.js";

/**
 * Vitest global setup: builds or checks every venv the tests use (`.venv` for moto and a2a-sdk
 * 0.3, `.venv-a2a1` for a2a-sdk 1.x) once, before test files start, so a cold install (about a minute)
 * is not charged to any test's hook timeout and no two test files race to install. The venvs are
 * prepared side by side: a cold install is mostly download and unpack time.
 */
export default async function setup(): Promise<void> {
  await Promise.all(
    testPythonEnvNames.map(async (name) => {
      const started = Date.now();
      const env = await ensurePythonEnv({
        name,
        onLog: (line) => process.stderr.write(`[python-env ${name}] ${line}\n`),
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stderr.write(`[python-env ${name}] ${env.venvDir} ready in ${seconds}s\n`);
    }),
  );
}
