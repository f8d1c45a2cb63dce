import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { ConfluenceConnection } from "./client.js";
import { storageToText, textToStorage } from "./storage.js";

const pageId = z.string().regex(/^\d+$/, "a Confluence page id like 65537").describe("The page's id");

/**
 * A space key as a policy names it. Confluence keeps a site space's key in upper case (it finds ops
 * at OPS); a personal space's key is `~` and the person's id, kept as given.
 */
export function spaceKey(given: string): string {
  const key = given.trim();
  return key.startsWith("~") ? key : key.toUpperCase();
}

export function confluenceTools(confluence: ConfluenceConnection): AgentTool[] {
  return [search(confluence), getPage(confluence), createPage(confluence), updatePage(confluence)];
}

const search = (confluence: ConfluenceConnection) =>
  defineTool({
    name: "search",
    description:
      'Search Confluence with CQL, e.g. space = OPS AND text ~ "runbook" ORDER BY lastmodified DESC',
    schema: z.object({
      cql: z.string().min(1).describe("A CQL query; name a space or text to keep it bounded"),
      limit: z.number().int().min(1).max(50).default(10),
    }),
    // A CQL query may name any number of spaces (or none): scoped by its tool only.
    run: async ({ cql, limit }, ctx) => {
      const { results = [], totalSize } = await confluence.call(ctx, (client) =>
        client.search.searchByCQL({ cql, limit }),
      );
      if (results.length === 0) return `Nothing matches: ${cql}`;
      const lines = results.map(
        (one) =>
          `${one.content?.id ?? "?"}: ${one.title ?? one.content?.title ?? "?"} (${one.resultGlobalContainer?.title ?? "?"}, ` +
          `updated ${one.lastModified?.slice(0, 10) ?? "?"})${one.excerpt ? ` — ${one.excerpt}` : ""}`,
      );
      const more =
        (totalSize ?? 0) > results.length ? `\n(${totalSize} match; narrow the CQL to see the rest)` : "";
      return `${lines.join("\n")}${more}`;
    },
  });

const getPage = (confluence: ConfluenceConnection) =>
  defineTool({
    name: "get_page",
    description: "Read a Confluence page: title, space, version and its text",
    schema: z.object({ id: pageId }),
    // A page id names no space; Confluence's own permissions decide which pages it shows.
    resource: ({ id }) => ({ page: id }),
    run: async ({ id }, ctx) => {
      const page = await confluence.call(ctx, (client) =>
        client.content.getContentById({ id, expand: ["body.storage", "version", "space"] }),
      );
      const version = page.version
        ? `version ${page.version.number}, ${page.version.when?.slice(0, 10) ?? "?"} by ${page.version.by?.displayName ?? "?"}`
        : "";
      return `${page.title} (page ${page.id} in ${page.space?.key ?? "?"}, ${version})\n\n${storageToText(page.body?.storage?.value ?? "")}`;
    },
  });

const createPage = (confluence: ConfluenceConnection) =>
  defineTool({
    name: "create_page",
    description: "Create a Confluence page in a space, optionally under a parent page",
    schema: z.object({
      space: z.string().min(1).describe("The space key, e.g. ENG"),
      title: z.string().min(1),
      body: z.string().min(1).describe("The page's text; blank lines separate paragraphs"),
      parent_id: pageId.optional(),
    }),
    confirm: ({ space, title }) => `Create the Confluence page "${title}" in space ${space}.`,
    resource: ({ space, parent_id }) => ({
      space: spaceKey(space),
      ...(parent_id ? { page: parent_id } : {}),
    }),
    run: async ({ space, title, body, parent_id }, ctx) => {
      const page = await confluence.call(ctx, (client) =>
        client.content.createContent({
          type: "page",
          title,
          space: { key: space },
          ...(parent_id ? { ancestors: [{ id: parent_id }] } : {}),
          body: { storage: { value: textToStorage(body), representation: "storage" } },
        }),
      );
      return `Created page ${page.id} "${page.title}" in ${space}.`;
    },
  });

const updatePage = (confluence: ConfluenceConnection) =>
  defineTool({
    name: "update_page",
    description: "Replace the text (and optionally the title) of a Confluence page",
    schema: z.object({
      id: pageId,
      body: z.string().min(1).describe("The page's new text; blank lines separate paragraphs"),
      title: z.string().optional(),
    }),
    confirm: ({ id, title }) =>
      `Replace the text of Confluence page ${id}${title ? ` and retitle it "${title}"` : ""}.`,
    resource: ({ id }) => ({ page: id }),
    run: async ({ id, body, title }, ctx) => {
      const current = await confluence.call(ctx, (client) =>
        client.content.getContentById({ id, expand: ["version"] }),
      );
      const next = (current.version?.number ?? 0) + 1;
      const page = await confluence.call(ctx, (client) =>
        client.content.updateContent({
          id,
          type: "page",
          title: title ?? current.title,
          version: { number: next },
          body: { storage: { value: textToStorage(body), representation: "storage" } },
        }),
      );
      return `Updated page ${page.id} "${page.title}" to version ${page.version?.number ?? next}.`;
    },
  });
