import { createHash } from "node:crypto";
import { SwitchboardError } from "@switchboard/common";

/** A key that links audit lines (HMAC-SHA-256), and the id each line it links carries. */
export interface AuditKey {
  /** Derived from the key (a one-way fingerprint), so rotating keys needs no second setting. */
  id: string;
  secret: Buffer;
}

const KEY_BYTES = 32;
/** A random 32-byte key has about 31 distinct byte values; fewer than this is a pattern, not a key. */
const MIN_DISTINCT_BYTES = 16;

/**
 * A key from its setting: 32 bytes as 64 hex characters or base64 (`openssl rand -hex 32`). A
 * passphrase, a short key or a pattern (all zeros, a repeated byte or phrase) is refused with what
 * to set: whoever guesses the key can rewrite the trail undetected.
 *
 * (Kept here, small, while CREDENTIALS_ENCRYPTION_KEY gets its own weak-key rule; the two belong in
 * one check.)
 */
export function readAuditKey(value: string, variable: string): AuditKey {
  const text = value.trim();
  const secret = /^[0-9a-f]{64}$/i.test(text)
    ? Buffer.from(text, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(text)
      ? Buffer.from(text, "base64")
      : Buffer.alloc(0);
  if (secret.length !== KEY_BYTES) {
    throw new SwitchboardError(
      "audit.key",
      "user",
      `${variable} must be a 32-byte key (64 hex characters, or base64): generate one with \`openssl rand -hex 32\`.`,
    );
  }
  if (new Set(secret).size < MIN_DISTINCT_BYTES) {
    throw new SwitchboardError(
      "audit.key",
      "user",
      `${variable} is a weak key (a repeated pattern, e.g. all zeros): anyone who guesses it can rewrite the audit trail. Generate a random one with \`openssl rand -hex 32\`.`,
    );
  }
  return { id: keyId(secret), secret };
}

function keyId(secret: Buffer): string {
  return createHash("sha256").update("switchboard audit key id\0").update(secret).digest("hex").slice(0, 16);
}
