import { describe, expect, it } from "vitest";
import { expiryAt, isExpired, refreshDue } from "./retention.js";

const MINUTE = 60_000;
const now = Date.UTC(2026, 0, 1);

describe("retention", () => {
  it("stamps nothing without a TTL, and a TTL and half past now with one", () => {
    expect(expiryAt(now, undefined)).toBeUndefined();
    expect(expiryAt(now, 60 * MINUTE)?.getTime()).toBe(now + 90 * MINUTE);
  });

  it("refreshes a conversation's expiry unless none of it expires within a TTL", () => {
    const ttl = 60 * MINUTE;
    expect(refreshDue(undefined, ttl, now)).toBe(true);
    expect(refreshDue(now + 61 * MINUTE, ttl, now)).toBe(false);
    expect(refreshDue(now + 60 * MINUTE, ttl, now)).toBe(true);
    expect(refreshDue(now + 30 * MINUTE, ttl, now)).toBe(true);
  });

  it("counts a conversation expired a TTL after its last activity, whatever the TTL monitor did", () => {
    const ttl = 60 * MINUTE;
    const lastActivity = now - 61 * MINUTE;
    const stamped = expiryAt(lastActivity, ttl);
    expect(isExpired(stamped, ttl, now)).toBe(true);
    expect(isExpired(expiryAt(now - 59 * MINUTE, ttl), ttl, now)).toBe(false);
    expect(isExpired(undefined, ttl, now)).toBe(false);
    expect(isExpired(stamped, undefined, now)).toBe(false);
  });
});
