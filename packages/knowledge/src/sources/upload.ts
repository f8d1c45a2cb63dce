import { SwitchboardError } from "@switchboard/common";
import type { UpsertResult } from "../ingest.js";
import type { Readers } from "../readers.js";
import type { KnowledgeStore } from "../store.js";
import type { SourceDefinition } from "./definition.js";
import { textKind, textOf } from "./text.js";

/** An uploaded file as the rag-server's multipart handler hands it over. */
export interface UploadedFile {
  /** The file's name as uploaded: the document's id within its source (uploading it again replaces it). */
  name: string;
  /** Its media type as sent (may be empty or generic: the name's extension decides then). */
  type: string;
  bytes: Uint8Array;
}

/** The largest file taken by default (the rag-server passes its own limit). */
const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;

/** A file name as a document id: its last path part, trimmed (a name with folders keeps none of them). */
function fileName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? "").trim();
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
  const kind = textKind(name, file.type);
  if (!kind) {
    throw refuse(`"${name}" is not a file the knowledge base reads: upload Markdown, text, HTML or PDF.`);
  }
  let read: { text: string; title?: string };
  try {
    read = await textOf(kind, name, file.bytes);
  } catch (error) {
    throw refuse(`"${name}" could not be read as a PDF (${(error as Error).message}).`);
  }
  const { text, title } = read;
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
