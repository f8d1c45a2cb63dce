// Jira Cloud stores descriptions and comments in Atlassian Document Format (ADF).

interface AdfNode {
  type: string;
  text?: string;
  content?: AdfNode[];
}

export interface AdfDocument {
  type: "doc";
  version: 1;
  content: AdfNode[];
}

/** Plain text to ADF: one paragraph per blank-line-separated block. */
export function textToAdf(text: string): AdfDocument {
  const paragraphs = text.split(/\n{2,}/).filter((block) => block.trim());
  return {
    type: "doc",
    version: 1,
    content: paragraphs.map((block) => ({ type: "paragraph", content: [{ type: "text", text: block }] })),
  };
}

const BLOCKS = new Set(["paragraph", "heading", "listItem", "codeBlock", "blockquote", "rule"]);

/** ADF to plain text, keeping paragraph breaks. */
export function adfToText(node: unknown): string {
  if (typeof node === "string") return node;
  if (!node || typeof node !== "object") return "";
  const { type, text, content } = node as AdfNode;
  if (type === "text") return text ?? "";
  if (type === "hardBreak") return "\n";
  const inner = (content ?? []).map(adfToText).join("");
  return BLOCKS.has(type) ? `${inner}\n` : inner;
}
