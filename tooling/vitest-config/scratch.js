import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/** The scratch folders the importing test file made, removed when it ends. */
const made = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh folder in the temp dir (`<prefix>-XXXXXX`), removed when the test file that made it ends,
 * so test runs leave nothing behind.
 */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  made.push(dir);
  return dir;
}
