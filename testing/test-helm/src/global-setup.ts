import { ensureHelm } from "./helm.js";

/**
 * Vitest global setup: builds helm once before any test file starts, so a cold `go install` (minutes)
 * is charged to no test's timeout, and no two test files race to build it.
 */
export default async function setup(): Promise<void> {
  const started = Date.now();
  const helm = await ensureHelm({ onLog: (line) => process.stderr.write(`[helm] ${line}\n`) });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(`[helm] ${helm.path} (${helm.version}) ready in ${seconds}s\n`);
}
