import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { BackstageConnection } from "./client.js";
import { completeRef, formatEntity, formatEntityLine } from "./format.js";

const ref = z
  .string()
  .min(1)
  .describe("An entity ref like component:default/checkout-api, group:payments, or just a component's name");

/**
 * What a call on one entity acts on, for the policy: its kind, namespace and full ref, in lower case
 * (Backstage compares entity refs ignoring case; `completeRef` fills in component: and default/).
 */
export function entityResource(given: string): { kind: string; namespace: string; entity: string } {
  const entity = completeRef(given);
  const [kind = "", rest = ""] = entity.split(/:(.*)/s);
  return { kind, namespace: rest.slice(0, rest.indexOf("/")), entity };
}

export function backstageTools(backstage: BackstageConnection): AgentTool[] {
  return [searchCatalog(backstage), getEntity(backstage), refreshEntity(backstage)];
}

const searchCatalog = (backstage: BackstageConnection) =>
  defineTool({
    name: "search_catalog",
    description:
      "Search the Backstage software catalog by text, kind (Component, API, Resource, System, Group, User), type or owner",
    schema: z.object({
      text: z.string().optional().describe("Words in the name, title, description or tags"),
      kind: z.string().optional(),
      type: z.string().optional().describe("spec.type, e.g. service, website, library, team"),
      owner: z.string().optional().describe("The owning group, e.g. payments or group:default/payments"),
      limit: z.number().int().min(1).max(100).default(25),
    }),
    resource: ({ kind }): Record<string, string> => (kind ? { kind: kind.toLowerCase() } : {}),
    run: async ({ text, kind, type, owner, limit }, ctx) => {
      const filter: Record<string, string> = {
        ...(kind ? { kind } : {}),
        ...(type ? { "spec.type": type } : {}),
        ...(owner
          ? { "relations.ownedBy": completeRef(owner.includes(":") ? owner : `group:${owner}`) }
          : {}),
      };
      const result = await backstage.call(ctx, (client, { token }) =>
        client.queryEntities(
          {
            filter,
            limit,
            ...(text ? { fullTextFilter: { term: text } } : {}),
            orderFields: { field: "metadata.name", order: "asc" },
          },
          { token },
        ),
      );
      if (result.items.length === 0) return "No catalog entities match.";
      const more =
        result.totalItems > result.items.length
          ? `\n(${result.totalItems} match; narrow the search to see the rest)`
          : "";
      return `${result.items.map(formatEntityLine).join("\n")}${more}`;
    },
  });

const getEntity = (backstage: BackstageConnection) =>
  defineTool({
    name: "get_entity",
    description:
      "Read one catalog entity: its owner, lifecycle, system, relations (owner, dependencies, members) and links",
    schema: z.object({ ref }),
    resource: ({ ref: given }) => entityResource(given),
    run: async ({ ref: given }, ctx) => {
      const full = completeRef(given);
      const entity = await backstage.call(ctx, (client, { token }) => client.getEntityByRef(full, { token }));
      if (!entity) return `The catalog has no entity ${full}; search_catalog finds the right ref.`;
      return formatEntity(entity);
    },
  });

const refreshEntity = (backstage: BackstageConnection) =>
  defineTool({
    name: "refresh_entity",
    description: "Ask Backstage to re-read an entity from its source (catalog-info.yaml) now",
    schema: z.object({ ref }),
    confirm: ({ ref: given }) =>
      `Refresh the Backstage catalog entity ${completeRef(given)} from its source.`,
    resource: ({ ref: given }) => entityResource(given),
    run: async ({ ref: given }, ctx) => {
      const full = completeRef(given);
      await backstage.call(ctx, (client, { token }) => client.refreshEntity(full, { token }));
      return `Asked Backstage to refresh ${full}: it re-reads the entity's catalog-info.yaml shortly.`;
    },
  });
