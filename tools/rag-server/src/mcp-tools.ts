import { Server as McpServer } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Principal } from "@switchboard/agent-runtime";
import { isSwitchboardError, type Logger } from "@switchboard/common";
import { CAIPE_RAG_TOOLS, RAG_FETCH_DOCUMENT, RAG_LIST_DATASOURCES, RAG_SEARCH } from "@switchboard/contract";
import type { KnowledgeStore, SearchHit } from "@switchboard/knowledge";

/** A hit's text as search returns it: enough to answer from; the whole document is fetch_document's. */
const SNIPPET_CHARS = 800;
/** The store's own bound on k. */
const MAX_LIMIT = 50;

/**
 * An MCP server for one request, whose tools answer as `principal`, the one the request's verified
 * token names (caller.ts): every search and fetch goes to the store with it, and the store filters
 * by it in its SQL. Nothing a tool's arguments say (filters, ids) widens what it reads.
 */
export function knowledgeMcpServer(store: KnowledgeStore, principal: Principal, logger: Logger): McpServer {
  const server = new McpServer({ name: "RAG Tools", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: CAIPE_RAG_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    try {
      return await answer(
        store,
        principal,
        request.params.name,
        (request.params.arguments ?? {}) as Record<string, unknown>,
      );
    } catch (error) {
      // A refusal worded for the caller (a question too long) is theirs to read; anything else is logged, not shown.
      if (isSwitchboardError(error) && error.category === "user") return failed(error.message);
      logger.error({ err: error, tool: request.params.name }, "A knowledge base tool failed");
      return failed("The knowledge base could not answer just now; try again, or tell an administrator.");
    }
  });
  return server;
}

/** One call of one of the three tools, answered as `principal`. */
async function answer(
  store: KnowledgeStore,
  principal: Principal,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const sources = datasourceFilter(args.filters);
  if (typeof sources === "string") return failed(sources);
  switch (tool) {
    case RAG_SEARCH:
      return search(store, principal, args, sources);
    case RAG_FETCH_DOCUMENT:
      return fetchDocument(store, principal, args, sources);
    case RAG_LIST_DATASOURCES: {
      const readable = await store.readableSources(principal);
      const datasources = sources ? readable.filter((id) => sources.includes(id)) : readable;
      return text({ datasources, entity_types: [] });
    }
    default:
      return failed(
        `Unknown tool: ${tool}. This server has ${CAIPE_RAG_TOOLS.map((one) => one.name).join(", ")}.`,
      );
  }
}

/**
 * CAIPE's `search`: `semantic_results` (hybrid: meaning and words, fused) and `keyword_results`
 * (words alone, the hits the first list lacks), each hit `{ text_content, metadata, score }` with
 * CAIPE's metadata keys, so a client made for CAIPE's server cites them as it does.
 */
async function search(
  store: KnowledgeStore,
  principal: Principal,
  args: Record<string, unknown>,
  sources: string[] | undefined,
): Promise<CallToolResult> {
  if (typeof args.query !== "string")
    return failed("query must be a string: the question, as a full sentence.");
  const limit = args.limit ?? 10;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1)
    return failed(`limit must be a whole number from 1 to ${MAX_LIMIT}.`);
  const k = Math.min(limit, MAX_LIMIT);
  const query = { text: args.query, principal, k, ...(sources ? { sources } : {}) };
  const semantic = await store.search(query);
  const seen = new Set(semantic.map(key));
  const keyword = (await store.search({ ...query, mode: "keyword" })).filter((hit) => !seen.has(key(hit)));
  return text({ semantic_results: semantic.map(result), keyword_results: keyword.map(result) });
}

/** CAIPE's `fetch_document`: the document's whole text and metadata, or CAIPE's words when none may be read. */
async function fetchDocument(
  store: KnowledgeStore,
  principal: Principal,
  args: Record<string, unknown>,
  sources: string[] | undefined,
): Promise<CallToolResult> {
  const id = args.document_id;
  if (typeof id !== "string" || id === "")
    return failed("document_id must be the document_id a search result gave.");
  const documents = await store.fetchDocument({ documentId: id, principal, ...(sources ? { sources } : {}) });
  // The same words for a document that does not exist and one the caller may not read.
  if (documents.length === 0) return text(`Error: Document with ID '${id}' not found in the knowledge base.`);
  return text(
    documents.map((document) => ({
      page_content: document.text,
      metadata: metadata(document.sourceId, document.documentId, document.title, document.uri),
    })),
  );
}

/**
 * A call's `filters.datasource_id` (one id or a list) as the sources to search, undefined when it
 * names none. It only narrows: the store still reads nothing the principal may not.
 */
function datasourceFilter(filters: unknown): string[] | undefined | string {
  if (filters === undefined || filters === null) return undefined;
  if (typeof filters !== "object" || Array.isArray(filters))
    return 'filters must be an object, e.g. {"datasource_id": "runbooks"}.';
  const asked = (filters as { datasource_id?: unknown }).datasource_id;
  if (asked === undefined || asked === null) return undefined;
  const ids = Array.isArray(asked) ? asked : [asked];
  if (!ids.every((id) => typeof id === "string"))
    return "filters.datasource_id must be a datasource id or a list of them (list_datasources_and_entity_types names them).";
  return ids as string[];
}

const key = (hit: SearchHit) => `${hit.sourceId}\u0000${hit.documentId}\u0000${hit.chunk}`;

function result(hit: SearchHit) {
  const cut = hit.chunk.length > SNIPPET_CHARS;
  return {
    // The metadata first: a client that trims a long result keeps whole hits' sources.
    metadata: metadata(hit.sourceId, hit.documentId, hit.title, hit.uri),
    score: hit.score,
    text_content: cut
      ? `${hit.chunk.slice(0, SNIPPET_CHARS)}…\n\n[Content truncated. Use fetch_document with document_id='${hit.documentId}' to get full content if needed.]`
      : hit.chunk,
  };
}

/** CAIPE's metadata keys for a document. */
function metadata(sourceId: string, documentId: string, title: string, uri: string) {
  return { document_id: documentId, datasource_id: sourceId, title, source_url: uri, document_type: "text" };
}

function text(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }] };
}

function failed(message: string): CallToolResult {
  return { ...text(message), isError: true };
}
