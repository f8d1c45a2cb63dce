/** Sends after a draining replica's 503 at most this many times. */
const DRAIN_RETRIES = 3;
/** Longest wait between them, whatever Retry-After asks. */
const MAX_DRAIN_WAIT_MS = 2_000;

/**
 * A replica shutting down answers a request it has not read with 503, `Retry-After` and
 * `Connection: close` (agent-runtime's drain), so the request can go to another replica: behind a
 * Kubernetes Service, only the client can send it again. This fetch does, on a new connection,
 * after Retry-After (at most 2 s), up to 3 times. Any other answer, a 503 without Retry-After and
 * a body that cannot be sent twice pass through as they are.
 */
export function retryWhenDraining(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      const response = await fetchImpl(input, init);
      const retryAfter = response.headers.get("retry-after");
      const resendable = !(input instanceof Request) && (init?.body == null || typeof init.body === "string");
      if (response.status !== 503 || retryAfter === null || !resendable || attempt >= DRAIN_RETRIES)
        return response;
      await response.body?.cancel();
      await sleep(waitMs(retryAfter), init?.signal ?? undefined);
    }
  };
}

/** Retry-After in seconds (or an HTTP date), capped. */
function waitMs(retryAfter: string): number {
  const seconds = Number(retryAfter);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
  return Math.min(Math.max(Number.isFinite(ms) ? ms : 0, 0), MAX_DRAIN_WAIT_MS);
}

/** Resolves after `ms`; rejects with the signal's reason if it aborts first. Runs in browsers too. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
