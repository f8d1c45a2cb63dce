/** The fields of Argo CD's Application that the tools show. */
export interface ArgoApplication {
  metadata: { name: string };
  spec: {
    project: string;
    source?: { repoURL?: string; path?: string; targetRevision?: string };
    destination?: { server?: string; namespace?: string };
    syncPolicy?: { automated?: object };
  };
  status?: {
    sync?: { status?: string; revision?: string };
    health?: { status?: string; message?: string };
    history?: Array<{ id: number; revision: string; deployedAt?: string }>;
    resources?: Array<{
      kind: string;
      namespace?: string;
      name: string;
      status?: string;
      health?: { status?: string; message?: string };
    }>;
    operationState?: { phase?: string; message?: string; startedAt?: string; finishedAt?: string };
  };
}

const short = (revision: string | undefined) => (revision ? revision.slice(0, 12) : "?");

/** `checkout-api [OutOfSync, Degraded] project payments, apps/checkout-api@HEAD → checkout-api`. */
export function formatApplicationLine(app: ArgoApplication): string {
  const { source, destination } = app.spec;
  const auto = app.spec.syncPolicy?.automated ? ", auto-sync" : "";
  return (
    `${app.metadata.name} [${app.status?.sync?.status ?? "Unknown"}, ${app.status?.health?.status ?? "Unknown"}] ` +
    `project ${app.spec.project}, ${source?.path ?? "?"}@${source?.targetRevision ?? "HEAD"} → ` +
    `${destination?.namespace ?? "?"}${auto}`
  );
}

export function formatApplication(app: ArgoApplication): string {
  const lines = [formatApplicationLine(app)];
  if (app.status?.sync?.revision) lines.push(`Synced to revision ${short(app.status.sync.revision)}`);
  if (app.status?.health?.message) lines.push(`Health: ${app.status.health.message}`);
  const operation = app.status?.operationState;
  if (operation?.phase) {
    lines.push(`Last operation: ${operation.phase}${operation.message ? ` — ${operation.message}` : ""}`);
  }
  // The resources worth a look: those not synced or not healthy.
  const troubled = (app.status?.resources ?? []).filter(
    (one) => one.status === "OutOfSync" || (one.health?.status && one.health.status !== "Healthy"),
  );
  for (const one of troubled) {
    const health = one.health?.status
      ? `, ${one.health.status}${one.health.message ? `: ${one.health.message}` : ""}`
      : "";
    lines.push(
      `- ${one.kind} ${one.namespace ? `${one.namespace}/` : ""}${one.name} [${one.status ?? "?"}${health}]`,
    );
  }
  return lines.join("\n");
}

/** Newest first: `id 6: 0ff1ce0ff1ce deployed 2025-…`. */
export function formatHistory(app: ArgoApplication): string {
  const history = [...(app.status?.history ?? [])].sort((a, b) => b.id - a.id);
  if (history.length === 0) return `${app.metadata.name} has no deployment history.`;
  const current = app.status?.sync?.revision;
  return history
    .map(
      (one) =>
        `id ${one.id}: ${short(one.revision)} deployed ${one.deployedAt ?? "?"}${one.revision === current ? " (current)" : ""}`,
    )
    .join("\n");
}
