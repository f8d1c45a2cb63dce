import { AsyncLocalStorage } from "node:async_hooks";

/** The caller's own token for one vendor, for the tool call running now. */
export interface CallCredential {
  vendor: string;
  token: string;
  /** The caller's email from their verified token (vendors whose tokens go with an account name). */
  email?: string;
}

/**
 * The linked token a tool call runs with, decided where the call is guarded (graph/guard-calls.ts)
 * and read by `VendorClient` inside that call: held in the call's own async context, never in
 * LangGraph's config or state, so it cannot reach a checkpoint. Like the turn's context, one store
 * for the process that holds nothing itself.
 */
const storage = new AsyncLocalStorage<CallCredential>();

export function runWithCredential<T>(credential: CallCredential, run: () => Promise<T>): Promise<T> {
  return storage.run(credential, run);
}

/** The caller's linked token for `vendor` in the call running now, if the guard chose one. */
export function callCredential(vendor: string): CallCredential | undefined {
  const credential = storage.getStore();
  return credential?.vendor === vendor ? credential : undefined;
}
