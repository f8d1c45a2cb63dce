import { seedParts } from "../seed.js";
import { type StatefulVendorServer, startStatefulVendorServer, VendorHttpError } from "../vendor-server.js";
import { komodorRoutes } from "./routes.js";
import { seedKomodor } from "./seed.js";
import type { KomodorState } from "./state.js";

export type { KomodorChange, KomodorState } from "./state.js";

/** Parts of the state a test or an evaluation case can seed, each replacing the default part. */
export type KomodorSeed = Partial<Omit<KomodorState, "changes">>;

const KOMODOR_PARTS = [
  "clusters",
  "issues",
  "events",
  "risks",
  "costs",
  "rightSizing",
  "jobs",
  "rcaSessions",
  "roles",
  "users",
  "userRoles",
  "permissions",
  "audit",
] as const;

/** Health-risk statuses set, root-cause analyses started and roles assigned or removed through the API. */
export interface FakeKomodor extends StatefulVendorServer<KomodorState> {
  /** The API key it accepts in X-API-KEY: KOMODOR_TOKEN. */
  token: string;
}

/** Starts a Komodor public API v2 look-alike: clusters, issues, events, health risks, cost, jobs, Klaudia RCA, RBAC, audit. */
export function startFakeKomodor(options: { port?: number; seed?: KomodorSeed } = {}): Promise<FakeKomodor> {
  const token = "fake-komodor-key-Qw12";
  const defaults = seedKomodor();
  const state: KomodorState = { ...defaults, ...seedParts("Komodor", defaults, options.seed, KOMODOR_PARTS) };
  return startStatefulVendorServer(
    {
      name: "Komodor",
      routes: komodorRoutes(state),
      checkRequest: ({ headers }) => {
        if (headers["x-api-key"] !== token) throw new VendorHttpError(401, "Unauthorized: invalid API key");
      },
      errorBody: (error) => ({ message: error.message, statusCode: error.status }),
    },
    state,
    { token },
    options.port,
  );
}
