import { type KnowledgeStore, type SourceDefinition, uploadDocument } from "@switchboard/knowledge";
import type { Request } from "express";

/** The form field the file comes in (CAIPE's local-file upload names it `file`). */
const FILE_FIELD = "file";

export type UploadOutcome =
  | { document_id: string; added: boolean }
  | { status: 400 | 413 | 415 | 502; problem: string };

/**
 * One file from a multipart form (`file`) into an upload source, read by the platform's own form
 * parser (undici's, behind `Response.formData`) from a body already bounded by the route. The
 * document's readers are the source's own: an upload never widens them.
 */
export async function uploadFile(
  store: KnowledgeStore,
  source: SourceDefinition,
  req: Request,
  maxBytes: number,
): Promise<UploadOutcome> {
  if (source.type !== "upload") {
    return {
      status: 400,
      problem: `"${source.id}" is a ${source.type} source: its documents come from the source itself. Upload to a source of type upload.`,
    };
  }
  if (!Buffer.isBuffer(req.body)) {
    return {
      status: 415,
      problem: `Send the file as multipart/form-data, in a field named "${FILE_FIELD}".`,
    };
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(req.body), {
      headers: { "content-type": req.header("content-type") ?? "" },
    }).formData();
  } catch {
    return {
      status: 400,
      problem: "The body is not a multipart form that can be read: send it as multipart/form-data.",
    };
  }
  const file = form.get(FILE_FIELD);
  if (!(file instanceof File)) {
    return { status: 400, problem: `The form has no file in a field named "${FILE_FIELD}".` };
  }
  if (file.size > maxBytes) {
    return {
      status: 413,
      problem: `The file has ${file.size} bytes, more than MAX_LOCAL_FILE_UPLOAD_BYTES (${maxBytes}) allows: split it, or raise the setting.`,
    };
  }
  let stored: Awaited<ReturnType<typeof uploadDocument>>;
  try {
    // The source's own readers: an upload never names others (it could widen who reads the source).
    stored = await uploadDocument(
      store,
      source,
      { name: file.name, type: file.type, bytes: new Uint8Array(await file.arrayBuffer()) },
      undefined,
      { maxBytes },
    );
  } catch (error) {
    // uploadDocument's refusals are worded for the uploader (the type, the size, an empty file).
    return { status: 400, problem: error instanceof Error ? error.message : String(error) };
  }
  const [failure] = stored.failed;
  if (failure) return { status: 502, problem: `"${failure.id}" could not be stored: ${failure.error}` };
  const [documentId = ""] = [...stored.added, ...stored.changed, ...stored.unchanged];
  return { document_id: documentId, added: stored.added.length > 0 };
}
