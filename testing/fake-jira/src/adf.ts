/** Atlassian Document Format: the JSON rich-text tree Jira Cloud REST v3 uses for descriptions and comments. */
export interface AdfNode {
  type: string;
  text?: string;
  content?: AdfNode[];
  attrs?: Record<string, unknown>;
  marks?: { type: string; attrs?: Record<string, unknown> }[];
}

export interface AdfDocument extends AdfNode {
  type: "doc";
  version: 1;
  content: AdfNode[];
}

/** One paragraph per line of `text`, the way Jira's editor stores plain text. */
export function textToAdf(text: string): AdfDocument {
  return {
    type: "doc",
    version: 1,
    content: text.split("\n").map((line) => ({
      type: "paragraph",
      content: line === "" ? [] : [{ type: "text", text: line }],
    })),
  };
}

/** Plain text of a document: block nodes become lines, for text search and for tests to read. */
export function adfToText(node: AdfNode | null | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.text ?? "";
  if (node.type === "hardBreak") return "\n";
  const inner = (node.content ?? []).map(adfToText);
  const isBlockContainer = node.type === "doc" || node.type.endsWith("List") || node.type === "listItem";
  return inner.join(isBlockContainer ? "\n" : "");
}

export function isAdfDocument(value: unknown): value is AdfDocument {
  if (typeof value !== "object" || value === null) return false;
  const doc = value as Partial<AdfDocument>;
  return doc.type === "doc" && doc.version === 1 && Array.isArray(doc.content);
}
