import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readAuditKey } from "../src/audit/key.js";
import { auditKeyProblem, readAuditSettings } from "../src/audit/settings.js";

describe("the audit trail's settings", () => {
  it("takes a 32-byte key as hex or base64, and derives the id each line names", () => {
    const bytes = randomBytes(32);
    const hex = readAuditKey(bytes.toString("hex"), "AUDIT_HMAC_KEY");
    const base64 = readAuditKey(bytes.toString("base64"), "AUDIT_HMAC_KEY");
    expect(hex.secret.equals(bytes)).toBe(true);
    expect(base64.id).toBe(hex.id);
    expect(hex.id).toMatch(/^[0-9a-f]{16}$/);
    // The id is a fingerprint, not the key.
    expect(bytes.toString("hex")).not.toContain(hex.id);
  });

  it("refuses weak keys with what to set: all zeros, a repeated pattern, a passphrase, a short key", () => {
    for (const weak of [
      "0".repeat(64),
      "ab".repeat(32),
      "0123456789abcdef".repeat(4),
      Buffer.alloc(32, 7).toString("base64"),
      "correct horse battery staple correct horse!",
      randomBytes(16).toString("hex"),
    ]) {
      expect(() => readAuditSettings({ AUDIT_HMAC_KEY: weak })).toThrow(
        /AUDIT_HMAC_KEY .*openssl rand -hex 32/,
      );
    }
    expect(() =>
      readAuditSettings({
        AUDIT_HMAC_KEY: randomBytes(32).toString("hex"),
        AUDIT_HMAC_PREVIOUS_KEYS: `${randomBytes(32).toString("hex")}, ${"0".repeat(64)}`,
      }),
    ).toThrow(/AUDIT_HMAC_PREVIOUS_KEYS \(key 2\) is a weak key/);
  });

  it("reads retention, the anchor file and older keys", () => {
    const old = randomBytes(32).toString("hex");
    const settings = readAuditSettings({
      AUDIT_RETENTION_DAYS: "30",
      AUDIT_ANCHOR_FILE: "/var/log/switchboard/audit-anchor.jsonl",
      AUDIT_HMAC_PREVIOUS_KEYS: old,
    });
    expect(settings).toMatchObject({
      retentionDays: 30,
      anchorFile: "/var/log/switchboard/audit-anchor.jsonl",
    });
    expect(settings.key).toBeUndefined();
    expect(settings.previousKeys[0]?.id).toBe(readAuditKey(old, "x").id);
    expect(() => readAuditSettings({ AUDIT_RETENTION_DAYS: "-1" })).toThrow(/AUDIT_RETENTION_DAYS/);
  });

  it("stops a signed-in deployment that stores an unkeyed trail, and warns a local one", () => {
    const none = readAuditSettings({});
    const jwt = auditKeyProblem(none, { authMode: "jwt", stored: true });
    expect(jwt && "error" in jwt && jwt.error.message).toMatch(
      /AUDIT_HMAC_KEY is not set and AUTH_MODE=jwt: .*openssl rand -hex 32/,
    );
    const local = auditKeyProblem(none, { authMode: "none", stored: true });
    expect(local && "warning" in local && local.warning).toContain("the audit trail is unkeyed");
    // In memory there is no database writer; with a key, nothing to say.
    expect(auditKeyProblem(none, { authMode: "jwt", stored: false })).toBeUndefined();
    const keyed = readAuditSettings({ AUDIT_HMAC_KEY: randomBytes(32).toString("hex") });
    expect(auditKeyProblem(keyed, { authMode: "jwt", stored: true })).toBeUndefined();
  });
});
