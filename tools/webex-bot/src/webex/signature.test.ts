import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signedByWebex } from "./signature.js";

const SECRET = "webex-webhook-secret-0123456789";
const body = Buffer.from(JSON.stringify({ resource: "messages", event: "created", data: { id: "m1" } }));
const sign = (secret: string, raw: Buffer) => createHmac("sha1", secret).update(raw).digest("hex");

describe("signedByWebex", () => {
  it("takes the HMAC-SHA1 of the raw body under the secret, in either case of hex", () => {
    expect(signedByWebex(SECRET, body, sign(SECRET, body))).toBe(true);
    expect(signedByWebex(SECRET, body, sign(SECRET, body).toUpperCase())).toBe(true);
  });

  it("refuses another secret's signature, a changed body, and no, short or non-hex signatures", () => {
    expect(signedByWebex(SECRET, body, sign("another-secret-0123456789", body))).toBe(false);
    expect(signedByWebex(SECRET, Buffer.concat([body, Buffer.from(" ")]), sign(SECRET, body))).toBe(false);
    expect(signedByWebex(SECRET, body, undefined)).toBe(false);
    expect(signedByWebex(SECRET, body, "")).toBe(false);
    expect(signedByWebex(SECRET, body, sign(SECRET, body).slice(0, 38))).toBe(false);
    expect(signedByWebex(SECRET, body, "z".repeat(40))).toBe(false);
    // HMAC-SHA256 (what some other vendors send) is not Webex's.
    const sha256 = createHmac("sha256", SECRET).update(body).digest("hex");
    expect(signedByWebex(SECRET, body, sha256)).toBe(false);
  });
});
