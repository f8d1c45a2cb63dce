import { seedParts } from "../seed.js";
import { type StatefulVendorServer, startStatefulVendorServer, VendorHttpError } from "../vendor-server.js";
import { victorOpsRoutes } from "./routes.js";
import { seedVictorOps } from "./seed.js";
import type { Note, VictorOpsState } from "./state.js";

export type {
  Incident as VictorOpsIncident,
  IncidentChange as VictorOpsChange,
  VictorOpsState,
} from "./state.js";

/**
 * Parts of the state a test or an evaluation case can seed, each replacing the default part: an
 * incident's notes by its number, and the usernames changes can be made as.
 */
export interface VictorOpsSeed
  extends Partial<Pick<VictorOpsState, "incidents" | "teams" | "policies" | "onCall" | "routingKeys">> {
  notes?: Record<string, Note[]>;
  users?: string[];
}

/** Incidents created, acknowledged, resolved and noted through the API. */
export interface FakeVictorOps extends StatefulVendorServer<VictorOpsState> {
  /** The API id and key it accepts (X-VO-Api-Id, X-VO-Api-Key): X_VO_API_ID, X_VO_API_KEY. */
  apiId: string;
  apiKey: string;
  /** A Splunk On-Call user changes can be made as: VICTOROPS_USERNAME. */
  username: string;
}

/**
 * Starts a Splunk On-Call (VictorOps) public API look-alike: incidents, notes, teams, on-call, routing
 * keys. Each is one organisation; give another `apiKey` to stand up a second one beside it.
 */
export function startFakeVictorOps(
  options: { port?: number; apiId?: string; apiKey?: string; seed?: VictorOpsSeed } = {},
): Promise<FakeVictorOps> {
  const apiId = options.apiId ?? "fake-vo-api-id";
  const apiKey = options.apiKey ?? "fake-vo-api-key-7f3a";
  const defaults = seedVictorOps();
  const { notes, users, ...parts } = seedParts(
    "Splunk On-Call",
    { ...defaults, notes: Object.fromEntries(defaults.notes), users: [...defaults.users] },
    options.seed,
    ["incidents", "notes", "teams", "policies", "onCall", "routingKeys", "users"],
  );
  const state: VictorOpsState = {
    ...defaults,
    ...parts,
    ...(notes ? { notes: new Map(Object.entries(notes)) } : {}),
    ...(users ? { users: new Set(users) } : {}),
  };
  return startStatefulVendorServer(
    {
      name: "Splunk On-Call",
      routes: victorOpsRoutes(state),
      checkRequest: ({ headers }) => {
        // The API answers 401 when the two headers are missing and 403 when they do not match.
        if (!headers["x-vo-api-id"] || !headers["x-vo-api-key"])
          throw new VendorHttpError(401, "Authentication parameters missing");
        if (headers["x-vo-api-id"] !== apiId || headers["x-vo-api-key"] !== apiKey)
          throw new VendorHttpError(403, "Authentication failed");
      },
      errorBody: (error) => ({
        message: error.message,
        ...(error.details.length ? { errors: error.details } : {}),
      }),
    },
    state,
    { apiId, apiKey, username: "alice" },
    options.port,
  );
}
