import { describe, expect, it } from "vitest";
import { chunksOf, embeddingInput } from "./chunking.js";

describe("chunking", () => {
  it("splits a long Markdown document at its headings, each chunk under the size and carrying the title", async () => {
    const section = (n: number) => `## Step ${n}\n\n${`Do the thing number ${n} carefully. `.repeat(20)}`;
    const text = `# Runbook\n\n${[1, 2, 3, 4].map(section).join("\n\n")}`;
    const chunks = await chunksOf("Runbook", text, { chunkSize: 800, chunkOverlap: 0 });
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual(chunks.map((_, index) => index));
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(800);
      expect(chunk.heading).toBe("Runbook");
    }
    // A heading stays with its section's text, and each section starts a chunk (the first after the title).
    for (const n of [1, 2, 3, 4]) {
      const chunk = chunks.find((each) => each.text.includes(`## Step ${n}`));
      expect(chunk?.text).toContain(`Do the thing number ${n}`);
      expect(chunk?.text.replace("# Runbook\n\n", "").startsWith(`## Step ${n}`)).toBe(true);
    }
    expect(embeddingInput(chunks[0] as (typeof chunks)[0])).toMatch(/^Runbook\n\n# Runbook/);
  });

  it("makes one chunk of the title when a document has no text", async () => {
    expect(await chunksOf("Empty page", "  \n")).toEqual([
      { ordinal: 0, heading: "Empty page", text: "Empty page" },
    ]);
  });
});
