/**
 * CAIPE's RAG server's three built-in MCP tools, under CAIPE's names and with the input schemas its
 * FastMCP server derives from `knowledge_bases/rag/server/src/server/tools.py` (0.5.x and 0.6.0):
 * `search(query, filters=None, limit=10, thought="")`, `fetch_document(document_id, filters=None,
 * thought="")`, `list_datasources_and_entity_types(filters=None, thought="")`. A client made for
 * CAIPE's server (the supervisor's ENABLE_RAG path) calls these unchanged, whether Switchboard's own
 * RAG server (tools/rag-server) or the tests' stand-in for CAIPE's serves them. The descriptions are ours.
 */

/** An MCP tool as a server lists it (the MCP SDK's `Tool` takes it as it is). */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, object>; required?: string[] };
}

/** `Optional[dict] = None`, as pydantic writes it. */
const FILTERS = {
  anyOf: [{ type: "object", additionalProperties: true }, { type: "null" }],
  default: null,
};
const THOUGHT = { type: "string", default: "" };

export const RAG_SEARCH = "search";
export const RAG_FETCH_DOCUMENT = "fetch_document";
export const RAG_LIST_DATASOURCES = "list_datasources_and_entity_types";

export const CAIPE_RAG_TOOLS: ListedTool[] = [
  {
    name: RAG_SEARCH,
    description:
      'Search the team\'s knowledge base (documentation, runbooks, ADRs) by meaning and by words. Args: query (a full sentence works best), filters (e.g. {"datasource_id": "…"} to search one source), limit (default 10), thought (why this tool). Returns semantic_results and keyword_results, each a list of text_content, metadata (document_id, datasource_id, title, source_url) and score.',
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string" },
        filters: FILTERS,
        limit: { type: "integer", default: 10 },
        thought: THOUGHT,
      },
      required: ["query"],
    },
  },
  {
    name: RAG_FETCH_DOCUMENT,
    description:
      "Fetch a whole document by the document_id a search result gave. Args: document_id, filters (narrows to datasource_id values), thought.",
    inputSchema: {
      type: "object",
      properties: { document_id: { type: "string" }, filters: FILTERS, thought: THOUGHT },
      required: ["document_id"],
    },
  },
  {
    name: RAG_LIST_DATASOURCES,
    description:
      "List the datasources of the knowledge base you may read. Args: filters (narrows to datasource_id values), thought.",
    inputSchema: {
      type: "object",
      properties: { filters: FILTERS, thought: THOUGHT },
    },
  },
];
