import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/**
 * CAIPE's RAG server's built-in MCP tools as its MCP endpoint lists them (FastMCP derives each input
 * schema from the Python signature in `knowledge_bases/rag/server/src/server/tools.py`, 0.5.x and
 * 0.6.0 alike): `search(query, filters=None, limit=10, thought="")`,
 * `fetch_document(document_id, filters=None, thought="")`,
 * `list_datasources_and_entity_types(filters=None, thought="")`. The names and schemas are CAIPE's;
 * the descriptions are this package's own words.
 */

/** `Optional[dict] = None`, as pydantic writes it. */
const FILTERS = {
  anyOf: [{ type: "object", additionalProperties: true }, { type: "null" }],
  default: null,
};
const THOUGHT = { type: "string", default: "" };

export const SEARCH = "search";
export const FETCH_DOCUMENT = "fetch_document";
export const LIST_DATASOURCES = "list_datasources_and_entity_types";

export const CAIPE_RAG_TOOLS: Tool[] = [
  {
    name: SEARCH,
    description:
      "Search the knowledge base. Args: query (a full sentence works best), filters (metadata filters, e.g. datasource_id), limit (default 10), thought (why this tool). Returns semantic_results and keyword_results, each a list of text_content, metadata and score.",
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
    name: FETCH_DOCUMENT,
    description:
      "Fetch a whole document by the document_id a search result gave. Args: document_id, filters (narrows to datasource_id values), thought.",
    inputSchema: {
      type: "object",
      properties: { document_id: { type: "string" }, filters: FILTERS, thought: THOUGHT },
      required: ["document_id"],
    },
  },
  {
    name: LIST_DATASOURCES,
    description:
      "List the datasources and entity types the knowledge base holds. Args: filters (narrows to datasource_id values), thought.",
    inputSchema: {
      type: "object",
      properties: { filters: FILTERS, thought: THOUGHT },
    },
  },
];
