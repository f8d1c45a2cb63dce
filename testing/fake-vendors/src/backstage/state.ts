/** A catalog entity as Backstage's catalog API returns it (the fields the fake fills). */
export interface Entity {
  apiVersion: "backstage.io/v1alpha1";
  kind: string;
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    title?: string;
    description?: string;
    tags?: string[];
    annotations?: Record<string, string>;
    links?: Array<{ url: string; title?: string; icon?: string }>;
  };
  spec?: Record<string, unknown>;
  relations?: Array<{ type: string; targetRef: string }>;
}

export interface BackstageState {
  entities: Entity[];
  /** Entity refs asked to be refreshed through POST /refresh, oldest first. */
  refreshed: string[];
}

/** `kind:namespace/name`, lower-cased, as Backstage writes entity refs. */
export function entityRef(entity: Entity): string {
  return `${entity.kind}:${entity.metadata.namespace}/${entity.metadata.name}`.toLowerCase();
}
