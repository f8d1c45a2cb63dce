import type { Part } from "@a2a-js/sdk";
import { SWITCHBOARD_PART_TYPE } from "./text.js";

/** The SWITCHBOARD_PART_TYPE of the data part that lists an answer's sources (the supervisor adds it). */
export const SOURCES_PART_TYPE = "sources";

/** One document an answer drew on, as the supervisor reports it. */
export interface AnswerSource {
  title: string;
  /** Only an http(s) address: anything else (javascript:, data:, a relative path) is dropped. */
  url?: string;
  datasourceId: string;
  documentId: string;
}

/** More would be no list a person reads; a part claiming more is cut, not trusted to be small. */
const MOST_SOURCES = 50;
const LONGEST_TITLE = 300;

/** Whether a part is an answer's sources list (a DataPart the supervisor adds), not text to show. */
export function isSourcesPart(part: Part): boolean {
  return part.content?.$case === "data" && part.metadata?.[SWITCHBOARD_PART_TYPE] === SOURCES_PART_TYPE;
}

/**
 * The sources the parts carry, or undefined when none is a sources part. The part comes from an
 * agent, which may lie or be broken: entries without a document are dropped, a link that is not
 * http(s) is dropped (the title stays, unlinked), repeats of a document are kept once.
 */
export function partsSources(parts: readonly Part[] | undefined): AnswerSource[] | undefined {
  const part = parts?.find(isSourcesPart);
  if (part?.content?.$case !== "data") return undefined;
  const entries: unknown = (part.content.value as { sources?: unknown } | null | undefined)?.sources;
  if (!Array.isArray(entries)) return [];
  const seen = new Set<string>();
  const sources: AnswerSource[] = [];
  for (const entry of entries) {
    const source = readSource(entry);
    if (!source) continue;
    const key = JSON.stringify([source.datasourceId, source.documentId]);
    if (seen.has(key)) continue;
    seen.add(key);
    sources.push(source);
    if (sources.length === MOST_SOURCES) break;
  }
  return sources;
}

function readSource(entry: unknown): AnswerSource | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const { title, url, datasource_id, document_id } = entry as Record<string, unknown>;
  if (typeof document_id !== "string" || document_id === "") return undefined;
  const datasourceId = typeof datasource_id === "string" ? datasource_id : "";
  const link = webLink(url);
  const name = typeof title === "string" && title.trim() ? title.trim() : document_id;
  return {
    title: name.slice(0, LONGEST_TITLE),
    ...(link ? { url: link } : {}),
    datasourceId,
    documentId: document_id,
  };
}

/** The address when it is an absolute http(s) URL, else undefined. */
function webLink(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
