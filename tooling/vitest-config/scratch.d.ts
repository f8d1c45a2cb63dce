/**
 * A fresh folder in the temp dir (`<prefix>-XXXXXX`), removed when the test file that made it ends,
 * so test runs leave nothing behind.
 */
export function scratchDir(prefix: string): string;
