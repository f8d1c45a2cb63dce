import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { komodorRoutes } from "./routes.js";
import { seedKomodor } from "./seed.js";
import type { KomodorChange, KomodorState } from "./state.js";

export type { KomodorChange, KomodorState } from "./state.js";

export interface FakeKomodor extends VendorServer {
  /** The API key it accepts in X-API-KEY: KOMODOR_TOKEN. */
  token: string;
  state: KomodorState;
  /** Health-risk statuses set and root-cause analyses started through the API, oldest first. */
  readonly changes: KomodorChange[];
}

/** Starts a Komodor public API v2 look-alike: clusters, issues, events, health risks, cost, jobs, Klaudia RCA, RBAC, audit. */
export async function startFakeKomodor(options: { port?: number } = {}): Promise<FakeKomodor> {
  const token = "fake-komodor-key-Qw12";
  const state = seedKomodor();
  const server = await startVendorServer(
    {
      name: "Komodor",
      routes: komodorRoutes(state),
      checkRequest: ({ headers }) => {
        if (headers["x-api-key"] !== token) throw new VendorHttpError(401, "Unauthorized: invalid API key");
      },
      errorBody: (error) => ({ message: error.message, statusCode: error.status }),
    },
    options.port,
  );
  return {
    ...server,
    token,
    state,
    get changes() {
      return state.changes;
    },
  };
}
