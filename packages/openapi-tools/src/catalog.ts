import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import {
  type AgentTool,
  defineRoutingTool,
  defineTool,
  MAX_TOOL_RESULT_CHARS,
} from "@switchboard/agent-runtime";
import { portableToolName } from "@switchboard/common/portable-schema";
import MiniSearch from "minisearch";
import { z } from "zod";
import { DEFAULT_MAX_TOOLS } from "./bound.js";
import type { JsonSchema, Operation } from "./operations.js";
import { pagingOf } from "./paging.js";

export { DEFAULT_MAX_TOOLS };

/** The most operations one search answers with. */
const MATCHES = 10;

/** Room left in a search's answer for its framing, under the runtime's cut of a tool result. */
const ANSWER_BUDGET = MAX_TOOL_RESULT_CHARS - 600;

/** One operation's own tool (not offered: the catalog reaches it). */
export interface CatalogEntry {
  operation: Operation;
  tool: AgentTool;
}

/**
 * A large description's operations as two tools: `<prefix>find_operations`, a full-text search
 * (MiniSearch: prefix and fuzzy matching) over their names, paths, summaries and tags, and
 * `<prefix>call_operation`, a routing tool whose call the runtime decides, confirms, audits and runs
 * as the call of the named operation's own tool (AgentTool.routes). It routes only to this catalog's
 * operations: another source's tools, or the agent's other tools, are not operations of this API.
 */
export function catalogTools(
  entries: CatalogEntry[],
  { prefix, api, taken }: { prefix: string; api: string; taken: Set<string> },
): AgentTool[] {
  const findName = portableToolName(`${prefix}find_operations`, taken);
  taken.add(findName);
  const callName = portableToolName(`${prefix}call_operation`, taken);
  taken.add(callName);
  const index = searchIndex(entries);
  const tags = [...new Set(entries.flatMap(({ operation }) => operation.tags))];
  // An operation by the name find_operations gives (the tool's name without the prefix), its tool's
  // full name, or its operationId: the names a model may have read.
  const byName = new Map<string, CatalogEntry>();
  for (const entry of entries) {
    for (const name of [entry.operation.operationId, entry.tool.tool.name, entry.operation.tool])
      byName.set(name, entry);
  }
  const tagNote =
    tags.length > 0
      ? ` Its tags: ${tags.slice(0, 40).join(", ")}${tags.length > 40 ? `, and ${tags.length - 40} more` : ""}.`
      : "";

  const find = defineTool({
    name: findName,
    description: `Finds operations of ${api} (${entries.length} of them) to call with ${callName}: words of what to do, a path or part of one, or an operation's name; optionally only the operations of one tag.${tagNote} Answers with at most ${MATCHES} operations: name, method, path, summary, tags, paging parameters and the arguments ${callName} takes for it (a JSON Schema).`,
    schema: z.object({
      query: z
        .string()
        .max(500)
        .describe("What to find: words (e.g. 'list open issues'), a path ('/repos/{owner}'), or a name"),
      tag: z.string().max(200).optional().describe("Only operations with this tag"),
    }),
    run: ({ query, tag }) => {
      if (tag !== undefined && !tags.includes(tag))
        return `${api} has no tag ${JSON.stringify(tag)}; its tags are: ${tags.join(", ") || "none"}.`;
      const found = search(index, entries, query, tag);
      if (found.length === 0)
        return `No operation of ${api} matches ${JSON.stringify(query)}${tag ? ` in tag ${tag}` : ""}: try other words, part of its path${tags.length > 0 ? ", or a tag" : ""}.`;
      return answerOf(found, callName);
    },
  });

  const call = defineRoutingTool({
    name: callName,
    description: `Calls one operation of ${api} by the name ${findName} gives, with its arguments (as ${findName} shows them: path, query and header parameters by name, and body). It runs as that operation's own call: a read answers at once; a change asks the user first. A list may answer with one page: call the same operation again with its paging arguments set for the next page.`,
    schema: z.object({
      operation: z.string().max(200).describe(`The operation's name, as ${findName} gives it`),
      arguments: z
        .object({})
        .catchall(z.unknown())
        .default({})
        .describe("The operation's arguments: its parameters by name, and body"),
    }),
    routes: ({ operation, arguments: args }) => {
      const entry = byName.get(operation);
      if (!entry) {
        const near = search(index, entries, operation, undefined)
          .slice(0, 3)
          .map(({ operation: near }) => near.tool);
        throw new Error(
          `${callName}: ${JSON.stringify(operation)} is not an operation of ${api}${near.length > 0 ? ` (near: ${near.join(", ")})` : ""}; find its name with ${findName}`,
        );
      }
      return { tool: entry.tool.tool.name, args };
    },
  });
  return [find, call];
}

/** The index find_operations searches: one document per operation. */
function searchIndex(entries: CatalogEntry[]): MiniSearch {
  const index = new MiniSearch({
    fields: ["name", "operationId", "path", "about", "tags", "method"],
    // getPetById, list_pets and /pets/{petId} all become words; a plural finds its singular.
    tokenize: (text) => text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(/[\s\p{P}\p{S}]+/u),
    processTerm: (term) => {
      const word = term.toLowerCase();
      if (word.length === 0) return null;
      return word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
    },
    searchOptions: {
      prefix: true,
      fuzzy: 0.2,
      boost: { name: 3, operationId: 2, tags: 2, path: 1.5 },
      combineWith: "OR",
    },
  });
  index.addAll(
    entries.map(({ operation }, id) => ({
      id,
      name: operation.tool,
      operationId: operation.operationId,
      path: operation.path,
      about: operation.about,
      tags: operation.tags.join(" "),
      method: operation.method,
    })),
  );
  return index;
}

/** The best matches first, at most MATCHES, only `tag`'s when given; an operation's exact name, that one alone. */
function search(
  index: MiniSearch,
  entries: CatalogEntry[],
  query: string,
  tag: string | undefined,
): CatalogEntry[] {
  const inTag = (entry: CatalogEntry) => tag === undefined || entry.operation.tags.includes(tag);
  // An operation's own name answers with that operation alone, so all its arguments have the room.
  const exact = entries.find(
    ({ operation, tool }) =>
      query === operation.tool || query === operation.operationId || query === tool.tool.name,
  );
  if (exact && inTag(exact)) return [exact];
  if (query.trim() === "" && tag) return entries.filter(inTag).slice(0, MATCHES);
  return index
    .search(query)
    .map(({ id }) => entries[id as number] as CatalogEntry)
    .filter(inTag)
    .slice(0, MATCHES);
}

/**
 * The matches as JSON the model reads, kept under the runtime's cut of a tool result: each
 * operation's arguments whole while they fit, else without their descriptions, else shallower, else
 * left for a search by that operation's name alone (which shows them, as far as they can be shown).
 */
function answerOf(found: CatalogEntry[], callName: string): string {
  let room = ANSWER_BUDGET;
  const matches = found.map(({ operation, tool }, position) => {
    const paging = pagingOf(operation);
    const match: Record<string, unknown> = {
      operation: operation.tool,
      method: operation.method,
      path: operation.path,
      summary: operation.about,
      ...(operation.tags.length > 0 ? { tags: operation.tags } : {}),
      ...(paging.length > 0 ? { paging } : {}),
    };
    room -= JSON.stringify(match).length;
    // Leave each later match room for its own line.
    const share = room - (found.length - position - 1) * 300;
    const args = fitted(convertToOpenAITool(tool.tool).function.parameters as JsonSchema, share);
    if (args) {
      match.arguments = args;
      room -= JSON.stringify(args).length;
    } else {
      match.arguments = `not shown here (too long beside the others): search for "${operation.tool}" alone to see them`;
    }
    return match;
  });
  return JSON.stringify({ matches, call: `${callName} {"operation": <operation>, "arguments": {…}}` });
}

/** A schema as shown within `room` characters: whole, then without descriptions, then shallower; else undefined. */
function fitted(schema: JsonSchema, room: number): JsonSchema | undefined {
  for (const depth of [Number.POSITIVE_INFINITY, 6, 4, 3, 2]) {
    for (const withDescriptions of depth === Number.POSITIVE_INFINITY ? [true, false] : [false]) {
      const shown = shallow(schema, depth, withDescriptions) as JsonSchema;
      if (JSON.stringify(shown).length <= room) return shown;
    }
  }
  return undefined;
}

const NUMBER_BOUND = new Set(["minimum", "maximum"]);

/** `schema` cut at `depth` (deeper objects and arrays as their bare type), descriptions dropped unless kept. */
function shallow(schema: unknown, depth: number, withDescriptions: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => shallow(item, depth, withDescriptions));
  if (typeof schema !== "object" || schema === null) return schema;
  const node = schema as JsonSchema;
  if (depth <= 0) return typeof node.type === "string" ? { type: node.type } : {};
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "description" && !withDescriptions) continue;
    // Noise to a reader: the dialect, and the bounds zod gives every integer.
    if (key === "$schema" || (NUMBER_BOUND.has(key) && Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER))
      continue;
    if (key === "properties" && typeof value === "object" && value !== null)
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, shallow(sub, depth - 1, withDescriptions)]),
      );
    else if (key === "items" || key === "anyOf" || key === "oneOf" || key === "allOf")
      out[key] = shallow(value, depth - 1, withDescriptions);
    else out[key] = value;
  }
  return out;
}
