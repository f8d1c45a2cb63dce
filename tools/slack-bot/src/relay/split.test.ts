import { describe, expect, it } from "vitest";
import { splitMessage } from "./split.js";

describe("splitMessage", () => {
  it("keeps a short answer whole", () => {
    expect(splitMessage("one line", 100)).toEqual(["one line"]);
  });

  it("splits a long answer at paragraph ends, each part within the limit, nothing lost", () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${"word ".repeat(20)}`.trim());
    const parts = splitMessage(paragraphs.join("\n\n"), 500);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(500);
    expect(parts.join("\n\n")).toBe(paragraphs.join("\n\n"));
  });

  it("closes a code block cut in two and opens it again in the next part", () => {
    const code = `\`\`\`\n${Array.from({ length: 80 }, (_, i) => `line ${i}`).join("\n")}\n\`\`\``;
    const parts = splitMessage(code, 300);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(300);
      expect(part.startsWith("```")).toBe(true);
      expect(part.endsWith("```")).toBe(true);
    }
  });
});
