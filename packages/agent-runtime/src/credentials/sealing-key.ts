import { SwitchboardError } from "@switchboard/common";

/** How to make a key that passes: 32 random bytes, printed by the tool as the setting wants them. */
const MAKE_ONE = "generate one with `openssl rand -base64 32` (or `openssl rand -hex 32`)";

/**
 * Fewer distinct values than this among a key's 32 bytes is a pattern, not randomness: all zeros, one
 * byte repeated, a short sequence repeated. 32 random bytes hold about 30 distinct values; fewer than
 * 20 happens to one random key in about seven billion (the chance such a refusal is wrong).
 */
const MIN_DISTINCT_BYTES = 20;

/**
 * The sealing key from a setting (CREDENTIALS_ENCRYPTION_KEY, by default), refused at start-up
 * unless it is 32 bytes of key material:
 * - written as 64 hex characters, or as the 44 characters of standard base64 (`=` included) that
 *   `openssl rand -base64 32` prints, decoding to exactly those 32 bytes and back (Node's base64
 *   decoder accepts nearly any text, so a 43-character passphrase decoded to 32 "bytes");
 * - with at least {@link MIN_DISTINCT_BYTES} distinct byte values (all zeros, repeats);
 * - base64 with both upper- and lower-case letters: a phrase typed in one case is text, not a key
 *   (random base64 lacks one of them once in about 2.7 billion).
 * The error names the setting and how to make a good key.
 */
export function readSealingKey(value: string | undefined, variable = "CREDENTIALS_ENCRYPTION_KEY"): Buffer {
  const text = value?.trim() ?? "";
  const key = decode(text);
  if (!key) {
    throw new SwitchboardError(
      "credentials.key",
      "user",
      `${variable} must be a 32-byte key, written as 64 hex characters or 44 characters of base64: ${MAKE_ONE}.`,
    );
  }
  const weakness = weaknessOf(key, text);
  if (weakness) {
    throw new SwitchboardError(
      "credentials.key",
      "user",
      `${variable} is a weak key (${weakness}): it must be 32 random bytes, not a pattern or a phrase; ${MAKE_ONE}.`,
    );
  }
  return key;
}

function decode(text: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, "hex");
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) return undefined;
  const key = Buffer.from(text, "base64");
  // Canonical only: the last character's unused bits are zero, so one key has one spelling.
  return key.length === 32 && key.toString("base64") === text ? key : undefined;
}

function weaknessOf(key: Buffer, text: string): string | undefined {
  const distinct = new Set(key).size;
  if (distinct < MIN_DISTINCT_BYTES) return `only ${distinct} distinct byte values of 32`;
  if (text.length === 44 && (!/[a-z]/.test(text) || !/[A-Z]/.test(text)))
    return "its base64 has letters of one case only, as typed text does";
  return undefined;
}
