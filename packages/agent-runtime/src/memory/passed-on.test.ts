import { describe, expect, it } from "vitest";
import { MEMORIES_HEADER, passedOnMemories, passOnMemories } from "./passed-on.js";

const headers = (value: string) => ({ [MEMORIES_HEADER.toLowerCase()]: value });

describe("memories passed on with a hop", () => {
  it("arrive as they were sent, UTF-8 and lines intact", () => {
    const block = "What this user asked you to remember:\n- our project is PLAT\n- équipe «plateforme» 🚀";
    expect(passedOnMemories(headers(passOnMemories(block)))).toBe(block);
  });

  it("are cut at a line to fit a header, never mid-line", () => {
    const lines = Array.from({ length: 400 }, (_, i) => `- fact number ${i} about the user's setup`);
    const block = ["What this user asked you to remember:", ...lines].join("\n");
    const value = passOnMemories(block);
    expect(value.length).toBeLessThan(9_000);
    const received = passedOnMemories(headers(value)) ?? "";
    expect(block.startsWith(received)).toBe(true);
    expect(received.endsWith("setup")).toBe(true);
  });

  it("are none when the header is absent, empty, repeated or not base64url", () => {
    expect(passedOnMemories(undefined)).toBeUndefined();
    expect(passedOnMemories({})).toBeUndefined();
    expect(passedOnMemories(headers(""))).toBeUndefined();
    expect(passedOnMemories(headers("not base64!"))).toBeUndefined();
    expect(passedOnMemories({ [MEMORIES_HEADER.toLowerCase()]: ["a", "b"] })).toBeUndefined();
  });
});
