import { nextAfter, seedParts } from "../seed.js";
import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { pagerDutyRoutes } from "./routes.js";
import { seedPagerDuty } from "./seed.js";
import type { IncidentChange, PagerDutyState } from "./state.js";

export type { Incident, IncidentChange, OnCall, PagerDutyState, Service } from "./state.js";

/** Parts of the state a test or an evaluation case can seed, each replacing the default part. */
export type PagerDutySeed = Partial<Pick<PagerDutyState, "services" | "incidents" | "oncalls">>;

export interface FakePagerDuty extends VendorServer {
  /** The REST API key it accepts (`Authorization: Token token=<key>`): PAGERDUTY_API_KEY. */
  apiKey: string;
  /** A PagerDuty user's email it accepts in the From header of changes. */
  fromEmail: string;
  state: PagerDutyState;
  /** Incidents created, acknowledged and resolved through the API, oldest first. */
  readonly changes: IncidentChange[];
}

const ACCEPT = "application/vnd.pagerduty+json;version=2";

/** Starts a PagerDuty REST API v2 look-alike (incidents, on-calls, services) for the real @pagerduty/pdjs client. */
export async function startFakePagerDuty(
  options: { apiKey?: string; port?: number; seed?: PagerDutySeed } = {},
): Promise<FakePagerDuty> {
  const apiKey = options.apiKey ?? "fake-pagerduty-key";
  const defaults = seedPagerDuty();
  const state: PagerDutyState = {
    ...defaults,
    ...seedParts("PagerDuty", defaults, options.seed, ["services", "incidents", "oncalls"]),
  };
  state.nextNumber = nextAfter(
    state.nextNumber,
    state.incidents.map((incident) => incident.incident_number),
  );
  const server = await startVendorServer(
    {
      name: "PagerDuty",
      routes: pagerDutyRoutes(state),
      checkRequest: ({ headers }) => {
        if (headers.authorization !== `Token token=${apiKey}`)
          throw new VendorHttpError(401, "Authentication failed");
        // PagerDuty's REST API v2 answers only clients that ask for version 2.
        if (headers.accept !== ACCEPT) throw new VendorHttpError(406, `Accept must be ${ACCEPT}`);
      },
      // PagerDuty's error body: { error: { message, code, errors? } }.
      errorBody: (error) => ({
        error: {
          message: error.message,
          code: ERROR_CODES[error.status] ?? 2000,
          ...(error.details.length ? { errors: error.details } : {}),
        },
      }),
    },
    options.port,
  );
  return {
    ...server,
    apiKey,
    fromEmail: "alice@example.com",
    state,
    get changes() {
      return state.changes;
    },
  };
}

const ERROR_CODES: Record<number, number> = { 400: 2001, 401: 2006, 404: 2100 };
