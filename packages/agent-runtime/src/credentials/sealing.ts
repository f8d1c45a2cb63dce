import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { SwitchboardError } from "@switchboard/common";

/**
 * Linked tokens are sealed with AES-256-GCM (node:crypto) under a key from the environment: what
 * MongoDB holds is useless without the key, and a sealed value moved to another user's record or
 * another agent fails to open (the record's identity is the additional authenticated data).
 */
const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key from CREDENTIALS_ENCRYPTION_KEY: 32 bytes as 64 hex characters or base64. */
export function readSealingKey(value: string | undefined, variable = "CREDENTIALS_ENCRYPTION_KEY"): Buffer {
  const text = value?.trim() ?? "";
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (!text || key.length !== 32) {
    throw new SwitchboardError(
      "credentials.key",
      "user",
      `${variable} must be a 32-byte key (64 hex characters, or base64) to store linked tokens: generate one with \`openssl rand -hex 32\`.`,
    );
  }
  return key;
}

export function seal(key: Buffer, plaintext: string, context: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), Buffer.concat([body, cipher.getAuthTag()]).toString("base64")].join(
    ".",
  );
}

/** Opens a sealed value; a wrong key, another record's value or a changed byte is refused. */
export function open(key: Buffer, sealed: string, context: string): string {
  const [version, iv, data] = sealed.split(".");
  if (version !== VERSION || !iv || !data) throw unreadable();
  const bytes = Buffer.from(data, "base64");
  if (bytes.length < TAG_BYTES) throw unreadable();
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    throw unreadable();
  }
}

function unreadable(): SwitchboardError {
  return new SwitchboardError(
    "credentials.unreadable",
    "user",
    "A linked token cannot be opened with CREDENTIALS_ENCRYPTION_KEY (the key changed, or the record was altered): link the token again.",
  );
}
