import { retryAfterMs, sleep } from "@switchboard/common";

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
      // A Retry-After that is neither seconds nor a date asks for no wait: send again at once.
      await sleep(retryAfterMs(retryAfter, { maxMs: MAX_DRAIN_WAIT_MS }) ?? 0, init?.signal ?? undefined);
    }
  };
}
