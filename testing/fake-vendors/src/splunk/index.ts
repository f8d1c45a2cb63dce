import { seedParts } from "../seed.js";
import { type StatefulVendorServer, startStatefulVendorServer, VendorHttpError } from "../vendor-server.js";
import { splunkRoutes } from "./routes.js";
import { seedSplunk } from "./seed.js";
import type { SplunkState } from "./state.js";

export type { SplunkChange, SplunkState } from "./state.js";

/** Parts of the state a test or an evaluation case can seed, each replacing the default part. */
export type SplunkSeed = Partial<Omit<SplunkState, "changes">>;

const SPLUNK_PARTS = [
  "detectors",
  "incidents",
  "mutingRules",
  "metrics",
  "timeSeries",
  "dimensions",
  "events",
  "teams",
] as const;

/** Detectors enabled or disabled, incidents cleared, alerts muted and unmuted through the API. */
export interface FakeSplunk extends StatefulVendorServer<SplunkState> {
  /** The org access token it accepts in X-SF-TOKEN: SPLUNK_TOKEN. */
  token: string;
}

/** Starts a Splunk Observability Cloud (SignalFx) REST API v2 look-alike for the agent's calls. */
export function startFakeSplunk(options: { port?: number; seed?: SplunkSeed } = {}): Promise<FakeSplunk> {
  const token = "fake-sf-token-Zx81";
  const defaults = seedSplunk();
  const state: SplunkState = {
    ...defaults,
    ...seedParts("Splunk Observability Cloud", defaults, options.seed, SPLUNK_PARTS),
  };
  return startStatefulVendorServer(
    {
      name: "Splunk Observability Cloud",
      routes: splunkRoutes(state),
      checkRequest: ({ headers }) => {
        if (headers["x-sf-token"] !== token) throw new VendorHttpError(401, "Unauthorized");
      },
      // The v2 API's error body: { code, message }.
      errorBody: (error) => ({ code: error.status, message: error.message }),
    },
    state,
    { token },
    options.port,
  );
}
