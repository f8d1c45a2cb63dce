import { requireInstalled } from "../installed.js";

/** The undici package (its Agent and fetch), for connections fetch's defaults cannot make. */
export type Undici = typeof import("undici");

/**
 * undici, loaded on first use: it is about a hundred modules (a tenth of a second of CPU at every
 * start), and only a webhook delivery or a vendor with TLS verification turned off needs it. Node
 * keeps the loaded module, so every call returns the same one.
 */
export function undici(): Undici {
  return requireInstalled("undici") as Undici;
}
