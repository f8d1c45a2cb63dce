import { ensureChromium } from "./chromium.js";

/** Vitest global setup: the browser the suite drives is there before any test starts. */
export default function setup(): void {
  ensureChromium((line) => process.stdout.write(`${line}\n`));
}
