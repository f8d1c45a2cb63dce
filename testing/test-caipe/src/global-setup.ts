import { ensureCaipeEnv } from "./caipe-env.js";
import { locateCaipe } from "./locate.js";

/**
 * Vitest global setup: builds or checks CAIPE's venvs once, before any test file, so a cold build
 * (a few minutes) is not charged to a hook timeout. Where CAIPE cannot run here it does nothing: the
 * tests themselves report why they are skipped.
 */
export default async function setup(): Promise<void> {
  const found = locateCaipe();
  if (!found.available) {
    process.stderr.write(`[caipe-env] CAIPE tests will be skipped: ${found.reason}\n`);
    return;
  }
  const started = Date.now();
  const env = await ensureCaipeEnv(found, { onLog: (line) => process.stderr.write(`[caipe-env] ${line}\n`) });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stderr.write(`[caipe-env] ${env.sourceDir} ready in ${seconds}s\n`);
}
