import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { open, readSealingKey, seal } from "../src/credentials/sealing.js";

describe("sealing a linked token", () => {
  const key = randomBytes(32);
  const token = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";

  it("opens what it sealed, and the sealed text does not contain the token", () => {
    const sealed = seal(key, token, "github/alice");
    expect(sealed).not.toContain(token);
    expect(open(key, sealed, "github/alice")).toBe(token);
  });

  it("refuses another key, another record's context and a changed byte", () => {
    const sealed = seal(key, token, "github/alice");
    expect(() => open(randomBytes(32), sealed, "github/alice")).toThrow(/cannot be opened/);
    expect(() => open(key, sealed, "github/mallory")).toThrow(/cannot be opened/);
    const tampered = sealed.slice(0, -4) + (sealed.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(() => open(key, tampered, "github/alice")).toThrow(/cannot be opened/);
  });

  it("takes a random key as hex or base64 and refuses anything else, naming the variable", () => {
    expect(readSealingKey(randomBytes(32).toString("hex"))).toHaveLength(32);
    expect(readSealingKey(randomBytes(32).toString("base64"))).toHaveLength(32);
    expect(() => readSealingKey("short")).toThrow(/CREDENTIALS_ENCRYPTION_KEY must be a 32-byte key/);
    expect(() => readSealingKey(undefined)).toThrow(/openssl rand -base64 32/);
    expect(() => readSealingKey("short", "SLACK_SEALING")).toThrow(/^SLACK_SEALING must be/);
  });

  it.each([
    ["64 zeros", "0".repeat(64)],
    ["one byte repeated (hex)", "ab".repeat(32)],
    ["all zeros (base64)", Buffer.alloc(32).toString("base64")],
    ["a short pattern repeated", "0123456789abcdef".repeat(4)],
    ["a counter", Buffer.from(Array.from({ length: 32 }, (_, i) => i % 16)).toString("hex")],
    ["a 43-character passphrase", "correcthorsebatterystaplecorrecthorsebatter"],
    ["a 43-character passphrase, mixed case", "MySuperSecretEncryptionKeyForSwitchboard123"],
    ["a 44-character lower-case phrase ending in =", "correcthorsebatterystaplecorrecthorsebatteg="],
    ["base64 that is not canonical", `${randomBytes(32).toString("base64").slice(0, 42)}B=`],
    ["base64url without padding", "hDaw3uBzo5hMUg6W-vF7VE_kDBQhPPpTX6IUoYtSCx8"],
    ["a key with stray characters", `${randomBytes(32).toString("hex")}!`],
  ])("refuses %s at start-up, saying how to make a good key", (_what, value) => {
    expect(() => readSealingKey(value)).toThrow(
      /^CREDENTIALS_ENCRYPTION_KEY (must be a 32-byte key|is a weak key)/,
    );
    expect(() => readSealingKey(value)).toThrow(/openssl rand -base64 32/);
  });

  it("refuses no random key among many (the rule's false refusals are negligible)", () => {
    for (let i = 0; i < 2000; i += 1) {
      expect(() => readSealingKey(randomBytes(32).toString(i % 2 ? "hex" : "base64"))).not.toThrow();
    }
  });
});
