import { requireInstalled } from "../installed.js";

/** Cedar's WebAssembly build (its Node.js flavour). */
export type Cedar = typeof import("@cedar-policy/cedar-wasm/nodejs");

/**
 * Cedar, loaded on first use: importing it compiles a 4 MB WebAssembly module (CPU at start-up and
 * resident memory for good), which an agent without policies never needs. Node keeps the loaded
 * module, so every later call returns the same instance (and the policy sets it holds).
 */
export function cedar(): Cedar {
  return requireInstalled("@cedar-policy/cedar-wasm/nodejs") as Cedar;
}
