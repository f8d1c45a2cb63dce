/** How long CAIPE's supervisor gives the RAG server's health check. */
const HEALTH_TIMEOUT_MS = 5_000;

/** What the health check found: up, or down with why (no secrets: the URL holds none). */
export type RagHealth = { up: true } | { up: false; reason: string };

/**
 * CAIPE's check before it takes the RAG server's tools: `GET <RAG_SERVER_URL>/healthz` answers 200.
 * A redirect is not followed: the server is where RAG_SERVER_URL says.
 */
export async function checkRagHealth(url: string, signal?: AbortSignal): Promise<RagHealth> {
  try {
    const response = await fetch(`${url}/healthz`, {
      redirect: "manual",
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(HEALTH_TIMEOUT_MS)])
        : AbortSignal.timeout(HEALTH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 200) return { up: true };
    return { up: false, reason: `its /healthz answered HTTP ${response.status}` };
  } catch (error) {
    return { up: false, reason: describe(error) };
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === "TimeoutError") return "its /healthz did not answer in 5 s";
  const cause = (error as { cause?: { code?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  return error instanceof Error ? error.message : String(error);
}
