import type { Principal } from "@switchboard/agent-runtime";
import type { Logger } from "@switchboard/common";
import type { KnowledgeStore, SourceDefinition, SyncStatus } from "@switchboard/knowledge";
import { type Request, type Response, type Router, raw, Router as router } from "express";
import type { SourceAccess } from "./access.js";
import type { Syncer } from "./syncer.js";
import { uploadFile } from "./upload.js";

export interface DatasourcesDeps {
  store: KnowledgeStore;
  sources: SourceDefinition[];
  access: SourceAccess;
  syncer: Syncer;
  logger: Logger;
  maxUploadBytes: number;
  /** The request's principal, set by the caller check before these routes. */
  principalOf(req: Request): Principal;
}

/**
 * The datasources API (CAIPE's `GET /v1/datasources`; sync and upload per source): the list with
 * each source's sync status, only the sources the caller may list (access.ts); sync now and upload
 * for the source's admins. A source the caller may not list answers 404, as one that does not exist.
 */
export function datasourcesRouter(deps: DatasourcesDeps): Router {
  const { store, access, syncer } = deps;
  const byId = new Map(deps.sources.map((source) => [source.id, source]));
  const routes = router();

  routes.get("/v1/datasources", async (req, res) => {
    const principal = deps.principalOf(req);
    const [statuses, readable] = await Promise.all([store.syncStatus(), store.readableSources(principal)]);
    const statusOf = new Map(statuses.map((status) => [status.sourceId, status]));
    const readableSet = new Set(readable);
    const datasources = deps.sources
      .filter((source) => access.mayList(principal, source, readableSet))
      .map((source) => listed(source, statusOf.get(source.id), access.mayAdminister(principal, source)));
    res.json({ success: true, datasources, count: datasources.length });
  });

  /** The source the path names, if the caller may administer it; else answered here (404 when they may not even list it). */
  const sourceFor = async (req: Request, res: Response): Promise<SourceDefinition | undefined> => {
    const principal = deps.principalOf(req);
    const source = byId.get(String(req.params.id));
    const readable = source ? new Set(await store.readableSources(principal)) : new Set<string>();
    if (!source || !access.mayList(principal, source, readable)) {
      res
        .status(404)
        .json({ detail: `No datasource "${String(req.params.id)}" here: GET /v1/datasources lists yours.` });
      return undefined;
    }
    if (!access.mayAdminister(principal, source)) {
      res.status(403).json({
        detail: principal.authenticated
          ? `Only the admins of "${source.id}" (its admins groups in KNOWLEDGE_SOURCES_FILE) or an administrator may do this.`
          : "Sign in: only a source's admins may do this.",
      });
      return undefined;
    }
    return source;
  };

  routes.post("/v1/datasources/:id/sync", async (req, res) => {
    const source = await sourceFor(req, res);
    if (!source) return;
    if (source.type === "upload") {
      res.status(400).json({
        detail: `"${source.id}" is an upload source: it has nothing to sync; POST files to /v1/datasources/${source.id}/documents.`,
      });
      return;
    }
    const outcome = await syncer.syncNow(source);
    deps.logger.info({ source: source.id, by: deps.principalOf(req).subject, outcome }, "Sync asked for");
    if (outcome === "running") {
      res.status(409).json({
        datasource_id: source.id,
        running: true,
        detail: "A sync of this source is under way; its progress is on GET /v1/datasources.",
      });
      return;
    }
    res.status(202).json({ datasource_id: source.id, running: true });
  });

  routes.post(
    "/v1/datasources/:id/documents",
    // Decided before the body is read: a caller who may not upload sends nothing the server keeps.
    async (req, res, next) => {
      const source = await sourceFor(req, res);
      if (!source) return;
      res.locals.source = source;
      next();
    },
    // The whole body, bounded (MAX_LOCAL_FILE_UPLOAD_BYTES and room for the form's own lines).
    raw({ type: "multipart/form-data", limit: deps.maxUploadBytes + 64 * 1024 }),
    async (req, res) => {
      const source = res.locals.source as SourceDefinition;
      const outcome = await uploadFile(store, source, req, deps.maxUploadBytes);
      if ("problem" in outcome) {
        res.status(outcome.status).json({ detail: outcome.problem });
        return;
      }
      deps.logger.info(
        { source: source.id, by: deps.principalOf(req).subject, document: outcome.document_id },
        "File uploaded",
      );
      res.status(201).json({ datasource_id: source.id, ...outcome });
    },
  );
  return routes;
}

/** One source on the list (AREAS' datasources interface, CAIPE's `datasource_id`/`source_type` words). */
function listed(source: SourceDefinition, status: SyncStatus | undefined, canSync: boolean) {
  return {
    datasource_id: source.id,
    name: source.name ?? source.id,
    source_type: source.type,
    last_sync: status?.lastSyncAt?.toISOString() ?? null,
    last_success: status?.lastSuccessAt?.toISOString() ?? null,
    last_error: status?.lastError ?? null,
    running: status?.running ?? false,
    progress: status?.progress ?? null,
    documents: status?.documents ?? 0,
    chunks: status?.chunks ?? 0,
    schedule: source.schedule ?? null,
    can_sync: canSync,
  };
}
