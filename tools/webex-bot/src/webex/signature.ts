import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Whether a webhook request is Webex's: `X-Spark-Signature` is the HMAC-SHA1 (hex) of the raw body
 * with the webhook's secret. Compared in constant time over the raw bytes, before anything is parsed.
 */
export function signedByWebex(secret: string, rawBody: Buffer, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-f]{40}$/i.test(signature)) return false;
  const expected = createHmac("sha1", secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(signature, "hex"));
}
