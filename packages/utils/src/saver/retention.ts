// When a conversation's documents expire (LANGGRAPH_CHECKPOINT_TTL_MINUTES), as plain arithmetic on times.

/**
 * When documents written at `now` expire: a TTL past the last activity, plus half a TTL of slack,
 * so the whole conversation's expiry needs pushing forward at most once per half TTL.
 */
export function expiryAt(now: number, ttlMs: number | undefined): Date | undefined {
  return ttlMs === undefined ? undefined : new Date(now + ttlMs * 1.5);
}

/**
 * Whether a conversation's documents must be pushed forward now: unless this process knows none
 * of them expires within a TTL from now, one could, and a live conversation must not lose it.
 */
export function refreshDue(expiresNoSoonerThan: number | undefined, ttlMs: number, now: number): boolean {
  return expiresNoSoonerThan === undefined || expiresNoSoonerThan <= now + ttlMs;
}

/**
 * Past its TTL since the last activity (the latest checkpoint's write, which set `expireAt` a TTL
 * and its slack ahead), whatever the TTL monitor did.
 */
export function isExpired(expireAt: Date | undefined, ttlMs: number | undefined, now: number): boolean {
  if (ttlMs === undefined || !expireAt) return false;
  return expireAt.getTime() - ttlMs * 0.5 < now;
}
