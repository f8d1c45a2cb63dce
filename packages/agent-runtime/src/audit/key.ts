import { createHash } from "node:crypto";
import { readSealingKey } from "../credentials/sealing-key.js";

/** A key that links audit lines (HMAC-SHA-256), and the id each line it links carries. */
export interface AuditKey {
  /** Derived from the key (a one-way fingerprint), so rotating keys needs no second setting. */
  id: string;
  secret: Buffer;
}

/**
 * A key from its setting, by the one rule for keys (credentials/sealing-key.ts): 32 random bytes as
 * 64 hex characters or base64; a passphrase, a short key or a pattern is refused with what to set,
 * since whoever guesses the key can rewrite the trail undetected.
 */
export function readAuditKey(value: string, variable: string): AuditKey {
  const secret = readSealingKey(value, variable);
  return { id: keyId(secret), secret };
}

function keyId(secret: Buffer): string {
  return createHash("sha256").update("switchboard audit key id\0").update(secret).digest("hex").slice(0, 16);
}
