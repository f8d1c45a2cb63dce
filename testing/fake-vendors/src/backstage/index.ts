import { seedParts } from "../seed.js";
import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { BACKSTAGE_CATALOG_SPEC, loadVendorSpec } from "../vendor-spec.js";
import { backstageOperations } from "./routes.js";
import { seedBackstage } from "./seed.js";
import type { BackstageState } from "./state.js";

export type { BackstageState, Entity } from "./state.js";

/** Parts of the state a test or an evaluation case can seed, each replacing the default part. */
export type BackstageSeed = Partial<Pick<BackstageState, "entities">>;

export interface FakeBackstage extends VendorServer {
  /** The static external-access token it accepts as a bearer token: BACKSTAGE_API_TOKEN. */
  token: string;
  state: BackstageState;
  /** Entity refs refreshed through the API, oldest first. */
  readonly refreshed: string[];
}

const ERROR_NAMES: Record<number, string> = {
  400: "InputError",
  401: "AuthenticationError",
  404: "NotFoundError",
};

/** Starts a Backstage catalog backend look-alike (/api/catalog) for the real @backstage/catalog-client. */
export async function startFakeBackstage(
  options: { token?: string; port?: number; seed?: BackstageSeed } = {},
): Promise<FakeBackstage> {
  const token = options.token ?? "fake-backstage-token";
  const defaults = seedBackstage();
  const state: BackstageState = {
    ...defaults,
    ...seedParts("Backstage", defaults, options.seed, ["entities"]),
  };
  const server = await startVendorServer(
    {
      name: "Backstage",
      openApi: {
        document: await loadVendorSpec(BACKSTAGE_CATALOG_SPEC),
        apiRoot: "/api/catalog",
        operations: backstageOperations(state),
      },
      checkRequest: ({ headers }) => {
        if (headers.authorization !== `Bearer ${token}`) throw new VendorHttpError(401, "Illegal token");
      },
      // Backstage's serialized error: { error: { name, message }, response: { statusCode } }.
      errorBody: (error) => ({
        error: { name: ERROR_NAMES[error.status] ?? "Error", message: error.message },
        response: { statusCode: error.status },
      }),
    },
    options.port,
  );
  return {
    ...server,
    token,
    state,
    get refreshed() {
      return state.refreshed;
    },
  };
}
