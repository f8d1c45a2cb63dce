import { SWITCHBOARD_PART_TYPE } from "@switchboard/a2a-client";
import type { AnswerData } from "@switchboard/agent-runtime";

/** One source of an answer, as the web chat shows it under the answer (AREAS' "Sources of an answer"). */
export interface AnswerSource {
  title: string;
  url: string;
  datasource_id: string;
  document_id: string;
}

/** The data part's mark: clients tell the sources part from the answer's text by it. */
export const SOURCES_PART_METADATA = { [SWITCHBOARD_PART_TYPE]: "sources" } as const;

/**
 * The knowledge base's hits a turn's model was served, and from them the answer's sources. Only what
 * the RAG server returned to this user's `search`, as the model read it (after the runtime trimmed a
 * long result), is ever a source: nothing is looked up or assembled from anything else.
 */
export class TurnSources {
  private readonly served = new Map<string, AnswerSource>();

  /** Reads a `search` result as the model read it: every complete hit's metadata in it. */
  record(result: unknown): void {
    for (const metadata of metadataObjects(resultText(result))) {
      const source = sourceOf(metadata);
      if (source) this.served.set(`${source.datasource_id}\u0000${source.document_id}`, source);
    }
  }

  /**
   * The answer's sources: the served documents whose link the answer cites; when it cites none by
   * link, every document served (the answer was written from them). Undefined when search served none.
   */
  forAnswer(answer: string): AnswerData | undefined {
    const served = [...this.served.values()];
    if (served.length === 0) return undefined;
    const cited = served.filter((source) => answer.includes(source.url));
    return { data: { sources: cited.length > 0 ? cited : served }, metadata: { ...SOURCES_PART_METADATA } };
  }
}

/** A tool result's text: a string, or an MCP tool's text blocks joined. */
function resultText(result: unknown): string {
  if (typeof result === "string") return result;
  if (!Array.isArray(result)) return "";
  return result
    .map((block) =>
      typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text"
        ? String((block as { text?: unknown }).text ?? "")
        : "",
    )
    .join("");
}

/**
 * Each complete JSON object that follows a `"metadata":` key in `text`. A search result cut short
 * (the runtime trims long tool results) is not JSON as a whole, but the hits before the cut are whole,
 * and those are what the model read.
 */
export function metadataObjects(text: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const key = /"metadata"\s*:\s*\{/g;
  for (let match = key.exec(text); match; match = key.exec(text)) {
    const start = match.index + match[0].length - 1;
    const end = objectEnd(text, start);
    if (end === undefined) break;
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (typeof value === "object" && value !== null && !Array.isArray(value))
        found.push(value as Record<string, unknown>);
    } catch {
      // Not JSON after all: no source from it.
    }
    key.lastIndex = end + 1;
  }
  return found;
}

/** Where the object opening at `start` closes (strings and escapes skipped), or undefined when it is cut off. */
function objectEnd(text: string, start: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === "\\") at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return at;
  }
  return undefined;
}

/**
 * A hit's metadata as a source: CAIPE's keys (`source_url`, `title`, `datasource_id`, `document_id`);
 * its link http(s), or `upload:` (a file uploaded to Switchboard's knowledge base, which has no web
 * page: shown, not followed). Any other scheme (javascript:, data:, file:) is no source.
 */
function sourceOf(metadata: Record<string, unknown>): AnswerSource | undefined {
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const url = text(metadata.source_url);
  const documentId = text(metadata.document_id);
  if (!documentId || !/^(https?:\/\/|upload:)/i.test(url)) return undefined;
  return {
    title: text(metadata.title) || url,
    url,
    datasource_id: text(metadata.datasource_id),
    document_id: documentId,
  };
}
