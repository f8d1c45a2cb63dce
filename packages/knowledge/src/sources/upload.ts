import { SwitchboardError } from "@switchboard/common";
import type { UpsertResult } from "../ingest.js";
import type { Readers } from "../readers.js";
import type { KnowledgeStore } from "../store.js";
import type { SourceDefinition } from "./definition.js";
import { markdownTitle } from "./github.js";
import { htmlTitle, htmlToMarkdown } from "./html.js";

/** An uploaded file as the rag-server's multipart handler hands it over. */
export interface UploadedFile {
  /** The file's name as uploaded: the document's id within its source (uploading it again replaces it). */
  name: string;
  /** Its media type as sent (may be empty or generic: the name's extension decides then). */
  type: string;
  bytes: Uint8Array;
}

type Kind = "markdown" | "text" | "html" | "pdf";

/** The largest file taken by default (the rag-server passes KNOWLEDGE_FETCH_MAX_BYTES). */
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

/** What a file is, by its media type, else its extension. */
export function uploadKind(name: string, type: string): Kind | undefined {
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

/** A file name as a document id: its last path part, trimmed (a name with folders keeps none of them). */
function fileName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? "").trim();
}

/** The text of a PDF, page after page (PDF.js through unpdf; loaded on first use, it is large). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: false });
  return (text as string[]).join("\n\n");
}

/**
 * Adds (or replaces) one uploaded file in an upload source: Markdown and text as they are, HTML as
 * Markdown, PDF's text. Readers are the ones given (the uploader's choice), else the source's.
 * Refused with the fix: a source that is not an upload source (its syncs would delete the file), an
 * empty or nameless file, one too large, a type it cannot read, a PDF it cannot open.
 */
export async function uploadDocument(
  store: KnowledgeStore,
  source: SourceDefinition,
  file: UploadedFile,
  readers?: Readers,
  options: { maxBytes?: number } = {},
): Promise<UpsertResult> {
  const refuse = (message: string) => new SwitchboardError("knowledge.upload", "user", message);
  if (source.type !== "upload") {
    throw refuse(
      `Source "${source.id}" is a ${source.type} source, whose syncs keep only what ${source.type} has: ` +
        "upload files to a source of type upload.",
    );
  }
  const name = fileName(file.name);
  if (!name) throw refuse("The uploaded file has no name: send it with a file name.");
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (file.bytes.byteLength > maxBytes) {
    throw refuse(`"${name}" is larger than ${maxBytes} bytes: raise KNOWLEDGE_FETCH_MAX_BYTES to take it.`);
  }
  if (file.bytes.byteLength === 0) throw refuse(`"${name}" is empty.`);
  const kind = uploadKind(name, file.type);
  if (!kind) {
    throw refuse(`"${name}" is not a file the knowledge base reads: upload Markdown, text, HTML or PDF.`);
  }
  let text: string;
  let title: string | undefined;
  if (kind === "pdf") {
    try {
      text = await pdfText(file.bytes);
    } catch (error) {
      throw refuse(`"${name}" could not be read as a PDF (${(error as Error).message}).`);
    }
  } else {
    const raw = new TextDecoder().decode(file.bytes);
    if (kind === "html") {
      title = htmlTitle(raw);
      text = htmlToMarkdown(raw, { page: true });
    } else {
      text = raw;
      if (kind === "markdown") title = markdownTitle(name, raw);
    }
  }
  if (!text.trim()) throw refuse(`"${name}" has no text to search (a scanned PDF has only images).`);
  return store.upsertDocuments(source.id, [
    {
      id: name,
      uri: `upload://${encodeURIComponent(source.id)}/${encodeURIComponent(name)}`,
      title: title ?? name.replace(/\.[a-z0-9]+$/i, ""),
      text,
      readers: readers ?? source.readers,
    },
  ]);
}
