/** The fields of a catalog entity that the tools show (@backstage/catalog-model's Entity has more). */
export interface Entity {
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    title?: string;
    description?: string;
    tags?: string[];
    annotations?: Record<string, string>;
    links?: Array<{ url: string; title?: string }>;
  };
  spec?: Record<string, unknown>;
  relations?: Array<{ type: string; targetRef: string }>;
}

/** `component:default/checkout-api`, as Backstage writes refs (lower case). */
export function refOf(entity: Entity): string {
  return `${entity.kind}:${entity.metadata.namespace ?? "default"}/${entity.metadata.name}`.toLowerCase();
}

/** A ref as the user gave it, completed: `checkout-api` → `component:default/checkout-api`. */
export function completeRef(ref: string): string {
  const withKind = ref.includes(":") ? ref : `component:${ref}`;
  const [kind, rest = ""] = withKind.split(/:(.*)/s);
  return `${kind}:${rest.includes("/") ? rest : `default/${rest}`}`.toLowerCase();
}

const spec = (entity: Entity, key: string) => {
  const value = entity.spec?.[key];
  return typeof value === "string" ? value : undefined;
};

/** `component:default/checkout-api [service, production] owner group:default/payments — Takes payments`. */
export function formatEntityLine(entity: Entity): string {
  const facets = [spec(entity, "type"), spec(entity, "lifecycle")].filter(Boolean).join(", ");
  const owner = spec(entity, "owner");
  const description = entity.metadata.description ? ` — ${entity.metadata.description}` : "";
  return `${refOf(entity)}${facets ? ` [${facets}]` : ""}${owner ? ` owner ${owner}` : ""}${description}`;
}

export function formatEntity(entity: Entity): string {
  const lines = [formatEntityLine(entity)];
  if (entity.metadata.title) lines.push(`Title: ${entity.metadata.title}`);
  const system = spec(entity, "system");
  if (system) lines.push(`System: ${system}`);
  if (entity.metadata.tags?.length) lines.push(`Tags: ${entity.metadata.tags.join(", ")}`);
  const source = entity.metadata.annotations?.["backstage.io/source-location"];
  if (source) lines.push(`Source: ${source.replace(/^url:/, "")}`);
  // Relations grouped by type: ownedBy, dependsOn, partOf, hasMember, …
  const byType = new Map<string, string[]>();
  for (const relation of entity.relations ?? []) {
    byType.set(relation.type, [...(byType.get(relation.type) ?? []), relation.targetRef]);
  }
  for (const [type, targets] of byType) lines.push(`${type}: ${targets.join(", ")}`);
  for (const link of entity.metadata.links ?? []) lines.push(`Link: ${link.title ?? link.url} ${link.url}`);
  return lines.join("\n");
}
