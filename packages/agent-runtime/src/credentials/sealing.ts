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

export { readSealingKey } from "./sealing-key.js";

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
