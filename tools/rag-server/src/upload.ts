import type { KnowledgeStore, SourceDefinition } from "@switchboard/knowledge";
import * as knowledge from "@switchboard/knowledge";

// TEMPORARY until h/ingest's uploadDocument lands (AREAS' interface).
const uploadDocument = (knowledge as unknown as Record<string, unknown>).uploadDocument as
  | ((
      store: KnowledgeStore,
      source: SourceDefinition,
      file: { name: string; type: string; bytes: Uint8Array },
    ) => Promise<{ documentId: string }>)
  | undefined;

import type { Request } from "express";

/** The form field the file comes in (CAIPE's local-file upload names it `file`). */
const FILE_FIELD = "file";

export type UploadOutcome =
  | { documentId: string; status?: undefined }
  | { status: 400 | 413 | 415; problem: string };

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
  if (!uploadDocument) return { status: 415, problem: "Uploads are not supported by this build." };
  try {
    const stored = await uploadDocument(store, source, {
      name: file.name,
      type: file.type,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return { documentId: stored.documentId };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { status: 400, problem: reason };
  }
}
