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

  it("takes a key as hex or base64 and refuses anything else, naming the variable", () => {
    expect(readSealingKey("ab".repeat(32))).toHaveLength(32);
    expect(readSealingKey(randomBytes(32).toString("base64"))).toHaveLength(32);
    expect(() => readSealingKey("short")).toThrow(/CREDENTIALS_ENCRYPTION_KEY must be a 32-byte key/);
    expect(() => readSealingKey(undefined)).toThrow(/openssl rand -hex 32/);
  });
});
