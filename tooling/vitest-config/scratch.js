import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The scratch folders made since the running test file started. */
const made = [];

/**
 * A fresh folder in the temp dir (`<prefix>-XXXXXX`), removed when the test file that made it ends
 * (the setup file every config runs, setup.js), so test runs leave nothing behind.
 */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  made.push(dir);
  return dir;
}

/** Removes the scratch folders made so far. */
export function removeScratchDirs() {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
