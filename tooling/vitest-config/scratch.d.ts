/**
 * A fresh folder in the temp dir (`<prefix>-XXXXXX`), removed when the test file that made it ends,
 * so test runs leave nothing behind.
 */
export function scratchDir(prefix: string): string;

/** Removes the scratch folders made so far (setup.js, after each test file). */
export function removeScratchDirs(): void;
