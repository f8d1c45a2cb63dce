import { type Handler, isRecord, VendorHttpError } from "../vendor-server.js";
import { type BackstageState, type Entity, entityRef } from "./state.js";

/** The value at a simplified JSON path (`spec.type`, `metadata.tags`), as the catalog's filters read it. */
function valuesAt(entity: Entity, path: string): string[] {
  if (path.startsWith("relations.")) {
    const type = path.slice("relations.".length).toLowerCase();
    return (entity.relations ?? [])
      .filter((one) => one.type.toLowerCase() === type)
      .map((one) => one.targetRef);
  }
  let value: unknown = entity;
  for (const key of path.split(".")) value = isRecord(value) ? value[key] : undefined;
  if (Array.isArray(value)) return value.map(String);
  return value === undefined || value === null || isRecord(value) ? [] : [String(value)];
}

/**
 * `filter=kind=component,spec.type=service&filter=kind=group`: conditions in one filter all hold
 * (AND), any filter may hold (OR); values compare case-insensitively, as the catalog does.
 */
function matchesFilters(entity: Entity, filters: string[]): boolean {
  if (filters.length === 0) return true;
  return filters.some((filter) =>
    filter.split(",").every((condition) => {
      const [key = "", ...rest] = condition.split("=");
      const values = valuesAt(entity, key.trim().toLowerCase() === "kind" ? "kind" : key.trim());
      if (rest.length === 0) return values.length > 0;
      const wanted = rest.join("=").trim().toLowerCase();
      return values.some((value) => value.toLowerCase() === wanted);
    }),
  );
}

function matchesText(entity: Entity, term: string | null): boolean {
  if (!term) return true;
  const text = [
    entity.metadata.name,
    entity.metadata.title,
    entity.metadata.description,
    ...(entity.metadata.tags ?? []),
  ]
    .filter(Boolean)
    .join(" ")
    .toLowerCase();
  return text.includes(term.toLowerCase());
}

/** The catalog operations the fake serves, by their operationId in the catalog's OpenAPI description. */
export function backstageOperations(state: BackstageState): Record<string, Handler> {
  const byQuery: Handler = ({ query }) => {
    const limit = Number(query.get("limit") ?? 20) || 20;
    const offset = Number(query.get("cursor") ?? query.get("offset") ?? 0) || 0;
    const items = state.entities.filter(
      (one) =>
        matchesFilters(one, query.getAll("filter")) && matchesText(one, query.get("fullTextFilterTerm")),
    );
    const next = offset + limit < items.length ? String(offset + limit) : undefined;
    return {
      status: 200,
      body: {
        items: items.slice(offset, offset + limit),
        totalItems: items.length,
        pageInfo: next ? { nextCursor: next } : {},
      },
    };
  };

  const byName: Handler = ({ params }) => {
    const ref = `${params.kind}:${params.namespace}/${params.name}`.toLowerCase();
    const found = state.entities.find((one) => entityRef(one) === ref);
    if (!found) throw new VendorHttpError(404, `No entity named '${ref}' found`);
    return { status: 200, body: found };
  };

  const refresh: Handler = ({ body }) => {
    const ref = isRecord(body) && typeof body.entityRef === "string" ? body.entityRef.toLowerCase() : "";
    if (!ref) throw new VendorHttpError(400, "entityRef is required");
    if (!state.entities.some((one) => entityRef(one) === ref))
      throw new VendorHttpError(404, `No entity named '${ref}' found`);
    state.refreshed.push(ref);
    return { status: 200 };
  };

  return { GetEntitiesByQuery: byQuery, GetEntityByName: byName, RefreshEntity: refresh };
}
