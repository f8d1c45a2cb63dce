import { seedParts } from "../seed.js";
import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { ARGO_CD_SPEC, loadVendorSpec } from "../vendor-spec.js";
import { argoOperations } from "./routes.js";
import { seedArgo } from "./seed.js";
import type { ArgoOperation, ArgoState } from "./state.js";

export type { Application, ArgoOperation, ArgoState } from "./state.js";

/** Parts of the state a test or an evaluation case can seed, each replacing the default part. */
export type ArgoSeed = Partial<Pick<ArgoState, "applications">>;

export interface FakeArgoCd extends VendorServer {
  /** The API token it accepts as a bearer token: ARGOCD_TOKEN. */
  token: string;
  state: ArgoState;
  /** Syncs and rollbacks accepted through the API, oldest first. */
  readonly operations: ArgoOperation[];
}

/** gRPC status codes that Argo CD's gateway puts beside the HTTP status. */
const GRPC_CODES: Record<number, number> = { 400: 9, 401: 16, 403: 7, 404: 5 };

/** Starts an Argo CD API server look-alike (/api/v1/applications, sync, rollback) for a REST client. */
export async function startFakeArgoCd(
  options: { token?: string; port?: number; seed?: ArgoSeed } = {},
): Promise<FakeArgoCd> {
  const token = options.token ?? "fake-argocd-token";
  const defaults = seedArgo();
  const state: ArgoState = { ...defaults, ...seedParts("Argo CD", defaults, options.seed, ["applications"]) };
  const server = await startVendorServer(
    {
      name: "Argo CD",
      openApi: { document: await loadVendorSpec(ARGO_CD_SPEC), operations: argoOperations(state) },
      checkRequest: ({ headers }) => {
        if (!headers.authorization) throw new VendorHttpError(401, "no session information");
        if (headers.authorization !== `Bearer ${token}`)
          throw new VendorHttpError(401, "invalid session: token is invalid");
      },
      // grpc-gateway's error body, which Argo CD's REST API returns.
      errorBody: (error) => ({
        error: error.message,
        code: GRPC_CODES[error.status] ?? 2,
        message: error.message,
      }),
    },
    options.port,
  );
  return {
    ...server,
    token,
    state,
    get operations() {
      return state.operations;
    },
  };
}
