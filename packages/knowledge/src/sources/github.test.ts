import { describe, expect, it } from "vitest";
import { markdownTitle, wanted } from "./github.js";

describe("GitHub files", () => {
  it("reads Markdown files under the source's paths only", () => {
    expect(wanted("docs/adr/0001-x.md", undefined)).toBe(true);
    expect(wanted("README.markdown", [])).toBe(true);
    expect(wanted("docs/page.mdx", ["docs"])).toBe(true);
    expect(wanted("docs/page.md", ["/docs/"])).toBe(true);
    expect(wanted("README.md", ["README.md"])).toBe(true);
    expect(wanted("docsite/page.md", ["docs"])).toBe(false);
    expect(wanted("docs/main.tf", ["docs"])).toBe(false);
    expect(wanted("src/x.md", ["docs"])).toBe(false);
  });

  it("titles a file by its first heading, else its name", () => {
    expect(markdownTitle("docs/adr/1.md", "intro\n\n# ADR 1: Use Karpenter #\n\n# Second")).toBe(
      "ADR 1: Use Karpenter",
    );
    expect(markdownTitle("docs/guide.markdown", "## Only a subheading")).toBe("guide");
  });
});
