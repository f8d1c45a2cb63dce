import { type Handler, isRecord, VendorHttpError } from "../vendor-server.js";
import type { Application, ArgoState } from "./state.js";

/** Argo CD's not-found, as its gRPC gateway reports a missing Application (code 5, HTTP 404). */
function findApplication(state: ArgoState, name: string): Application {
  const app = state.applications.find((one) => one.metadata.name === name);
  if (!app) throw new VendorHttpError(404, `applications.argoproj.io "${name}" not found`);
  return app;
}

/** Argo CD refuses a second operation while one runs. */
function startOperation(app: Application, revision: string, prune: boolean): void {
  if (app.operation || app.status.operationState?.phase === "Running") {
    throw new VendorHttpError(400, "another operation is already in progress");
  }
  const now = new Date().toISOString();
  app.operation = { sync: { revision, prune }, initiatedBy: { username: "admin" } };
  app.status.operationState = {
    operation: { sync: { revision, prune } },
    phase: "Running",
    message: "waiting for completion of hook and resources",
    startedAt: now,
  };
}

/** The API server operations the fake serves, by their operationId in Argo CD's OpenAPI description. */
export function argoOperations(state: ArgoState): Record<string, Handler> {
  const listApplications: Handler = ({ query }) => {
    const projects = query.getAll("projects").concat(query.getAll("project"));
    const name = query.get("name");
    const items = state.applications.filter(
      (one) =>
        (projects.length === 0 || projects.includes(one.spec.project)) &&
        (!name || one.metadata.name === name),
    );
    return { status: 200, body: { metadata: { resourceVersion: "1000" }, items } };
  };

  const getApplication: Handler = ({ params }) => ({
    status: 200,
    body: findApplication(state, params.name ?? ""),
  });

  const sync: Handler = ({ params, body }) => {
    const app = findApplication(state, params.name ?? "");
    const input = isRecord(body) ? body : {};
    if (input.name !== undefined && input.name !== app.metadata.name) {
      throw new VendorHttpError(400, "name in the body does not match the path");
    }
    const revision =
      typeof input.revision === "string" && input.revision ? input.revision : app.spec.source.targetRevision;
    const prune = input.prune === true;
    startOperation(app, revision, prune);
    state.operations.push({ action: "sync", application: app.metadata.name, revision, prune });
    return { status: 200, body: app };
  };

  const rollback: Handler = ({ params, body }) => {
    const app = findApplication(state, params.name ?? "");
    const input = isRecord(body) ? body : {};
    // Argo CD takes the history id as an int64, which its JSON gateway accepts as a number or a string.
    const id = Number(input.id);
    if (!Number.isInteger(id) || id <= 0) throw new VendorHttpError(400, "id is required");
    if (app.spec.syncPolicy?.automated) {
      throw new VendorHttpError(400, "rollback cannot be initiated when auto-sync is enabled");
    }
    const entry = app.status.history.find((one) => one.id === id);
    if (!entry)
      throw new VendorHttpError(
        404,
        `application ${app.metadata.name} does not have deployment with id ${id}`,
      );
    const prune = input.prune === true;
    startOperation(app, entry.revision, prune);
    state.operations.push({
      action: "rollback",
      application: app.metadata.name,
      revision: entry.revision,
      historyId: id,
      prune,
    });
    return { status: 200, body: app };
  };

  return {
    ApplicationService_List: listApplications,
    ApplicationService_Get: getApplication,
    ApplicationService_Sync: sync,
    ApplicationService_Rollback: rollback,
  };
}
