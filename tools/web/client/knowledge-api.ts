import { SignInNeeded } from "./api.js";

/** How far a running sync is (the knowledge package's SyncProgress). */
export interface SyncProgress {
  phase: "listing" | "embedding" | "removing" | "done" | "failed";
  listed: number;
  changed: number;
  unchanged: number;
  removed: number;
  failed: number;
  error?: string;
}

/** One source of the knowledge base as the RAG server lists it (GET /v1/datasources). */
export interface Datasource {
  datasource_id: string;
  name: string;
  source_type: string;
  /** ISO 8601, or null when it never ran. */
  last_sync: string | null;
  last_success: string | null;
  last_error: string | null;
  running: boolean;
  progress?: SyncProgress | null;
  documents: number;
  chunks: number;
  /** Whether the caller may sync it and add files (its admins, an administrator): the server decides again. */
  can_sync?: boolean;
}

/** The knowledge base is off on this web chat (ENABLE_RAG is not true): the page says so. */
export class KnowledgeOff extends Error {
  override readonly name = "KnowledgeOff";
}

/**
 * The RAG server's datasource API, through the web server's /api/rag (src/knowledge.ts), with the
 * user's own token: the RAG server lists only what they may read and decides who may sync or upload.
 */
export class KnowledgeApi {
  constructor(private readonly token: () => string | undefined) {}

  async datasources(): Promise<Datasource[]> {
    const body = (await this.call("GET", "/api/rag/v1/datasources")) as { datasources?: Datasource[] };
    return body.datasources ?? [];
  }

  async sync(datasourceId: string): Promise<void> {
    await this.call("POST", `/api/rag/v1/datasources/${encodeURIComponent(datasourceId)}/sync`);
  }

  /** Sends one file as multipart form data (field `file`), as the RAG server's upload takes it. */
  async upload(datasourceId: string, file: File): Promise<void> {
    const form = new FormData();
    form.append("file", file, file.name);
    await this.call("POST", `/api/rag/v1/datasources/${encodeURIComponent(datasourceId)}/documents`, form);
  }

  private async call(method: string, path: string, body?: FormData): Promise<unknown> {
    const token = this.token();
    const response = await fetch(path, {
      method,
      headers: { accept: "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body } : {}),
    });
    if (response.status === 401) throw new SignInNeeded("Your sign-in has expired; sign in again.");
    const answer = (await response.json().catch(() => ({}))) as {
      code?: string;
      error?: unknown;
      detail?: unknown;
    };
    if (response.status === 503 && answer.code === "rag_off") throw new KnowledgeOff(String(answer.error));
    if (!response.ok) throw new Error(refusal(response.status, answer));
    return answer;
  }
}

/** The server's own words for a refusal (`error`, or FastAPI's `detail` as CAIPE's server says it). */
function refusal(status: number, answer: { error?: unknown; detail?: unknown }): string {
  const words = answer.error ?? answer.detail;
  if (typeof words === "string" && words) {
    return status === 403 ? `You may not do this: ${words}` : words;
  }
  return status === 403
    ? "You may not do this: the knowledge base refused it."
    : `The knowledge base answered HTTP ${status}.`;
}
