import { ensurePythonEnv } from "@switchboard-testing/test-python";

/** Vitest global setup: the TCK's venv (`<repo root>/.venv-tck`), installed or checked once. */
export default async function setup(): Promise<void> {
  const started = Date.now();
  const env = await ensurePythonEnv({
    name: "tck",
    onLog: (line) => process.stderr.write(`[python-env tck] ${line}\n`),
  });
  process.stderr.write(
    `[python-env tck] ${env.venvDir} ready in ${((Date.now() - started) / 1000).toFixed(1)}s\n`,
  );
}
