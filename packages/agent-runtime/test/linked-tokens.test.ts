import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { LinkedTokens } from "../src/credentials/linked-tokens.js";
import { readLinkingSettings } from "../src/credentials/settings.js";

const github = { vendor: "github", title: "GitHub", hint: "a personal access token" };

describe("tokens a user links (memory backend)", () => {
  it("links, lists without the token, opens it only for its owner, unlinks", async () => {
    const tokens = await LinkedTokens.open(undefined, "github", github, randomBytes(32));
    const linked = await tokens.link("alice", "  ghp_alice_token  ");
    expect(linked).toEqual({ vendor: "github", title: "GitHub", linkedAt: expect.any(String) });
    expect(JSON.stringify(await tokens.list("alice"))).not.toContain("ghp_alice_token");
    expect(await tokens.tokenFor("alice")).toBe("ghp_alice_token");
    expect(await tokens.tokenFor("bob")).toBeUndefined();
    expect(await tokens.list("bob")).toEqual([]);
    expect(await tokens.unlink("alice")).toBe(true);
    expect(await tokens.unlink("alice")).toBe(false);
    expect(await tokens.tokenFor("alice")).toBeUndefined();
  });

  it("refuses an empty, multi-line or huge token without repeating it", async () => {
    const tokens = await LinkedTokens.open(undefined, "github", github, randomBytes(32));
    await expect(tokens.link("alice", "")).rejects.toThrow(
      'The GitHub token is empty: send {"token": "<a personal access token>"}.',
    );
    await expect(tokens.link("alice", "ghp_a\nghp_b")).rejects.toThrow(
      /contains spaces or control characters/,
    );
    await expect(tokens.link("alice", "x".repeat(5000))).rejects.toThrow(/longer than 4096 characters/);
  });
});

describe("whether linking is on", () => {
  const key = randomBytes(32).toString("hex");
  it("is on with a key, off without one or when turned off, and says what to set", () => {
    expect(readLinkingSettings({ CREDENTIALS_ENCRYPTION_KEY: key })).toMatchObject({ enabled: true });
    expect(readLinkingSettings({})).toMatchObject({
      enabled: false,
      reason: expect.stringContaining("CREDENTIALS_ENCRYPTION_KEY"),
    });
    expect(
      readLinkingSettings({ CREDENTIALS_ENCRYPTION_KEY: key, LINKED_TOKENS_ENABLED: "false" }),
    ).toMatchObject({
      enabled: false,
    });
    expect(() => readLinkingSettings({ LINKED_TOKENS_ENABLED: "true" })).toThrow(
      /LINKED_TOKENS_ENABLED=true but CREDENTIALS_ENCRYPTION_KEY is not set/,
    );
    expect(() => readLinkingSettings({ CREDENTIALS_ENCRYPTION_KEY: "abc" })).toThrow(/must be a 32-byte key/);
    expect(() => readLinkingSettings({ LINKED_TOKENS_ENABLED: "yes" })).toThrow(
      /LINKED_TOKENS_ENABLED: must be true or false/,
    );
  });
});
