import { markdownTitle } from "./github.js";
import { htmlTitle, htmlToMarkdown } from "./html.js";

/** The kinds of file the knowledge base reads the text of. */
export type TextKind = "markdown" | "text" | "html" | "pdf";

/** What a file is, by its media type, else its name's extension; undefined: one it does not read. */
export function textKind(name: string, type: string): TextKind | undefined {
  const media = type.split(";")[0]?.trim().toLowerCase() ?? "";
  if (media === "application/pdf") return "pdf";
  if (media === "text/html" || media === "application/xhtml+xml") return "html";
  if (media === "text/markdown" || media === "text/x-markdown") return "markdown";
  const extension = name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? "";
  if (extension === "pdf") return "pdf";
  if (["html", "htm", "xhtml"].includes(extension)) return "html";
  if (["md", "markdown", "mdx"].includes(extension)) return "markdown";
  if (["txt", "text", "log", "rst", "adoc"].includes(extension) || media === "text/plain") return "text";
  return undefined;
}

/** The text of a PDF, page after page (PDF.js through unpdf; loaded on first use, it is large). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: false });
  return (text as string[]).join("\n\n");
}

/**
 * A file's searchable text and, where it names one, its title: Markdown and text as they are, HTML as
 * Markdown without a page's furniture, a PDF's text. Throws for a PDF it cannot open.
 */
export async function textOf(
  kind: TextKind,
  name: string,
  bytes: Uint8Array,
): Promise<{ text: string; title?: string }> {
  if (kind === "pdf") return { text: await pdfText(bytes) };
  const raw = new TextDecoder().decode(bytes);
  if (kind === "html") {
    const title = htmlTitle(raw);
    return { text: htmlToMarkdown(raw, { page: true }), ...(title ? { title } : {}) };
  }
  return kind === "markdown" ? { text: raw, title: markdownTitle(name, raw) } : { text: raw };
}
