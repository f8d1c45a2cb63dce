import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { splunkRoutes } from "./routes.js";
import { seedSplunk } from "./seed.js";
import type { SplunkChange, SplunkState } from "./state.js";

export type { SplunkChange, SplunkState } from "./state.js";

export interface FakeSplunk extends VendorServer {
  /** The org access token it accepts in X-SF-TOKEN: SPLUNK_TOKEN. */
  token: string;
  state: SplunkState;
  /** Detectors enabled or disabled, incidents cleared, alerts muted and unmuted through the API, oldest first. */
  readonly changes: SplunkChange[];
}

/** Starts a Splunk Observability Cloud (SignalFx) REST API v2 look-alike for the agent's calls. */
export async function startFakeSplunk(options: { port?: number } = {}): Promise<FakeSplunk> {
  const token = "fake-sf-token-Zx81";
  const state = seedSplunk();
  const server = await startVendorServer(
    {
      name: "Splunk Observability Cloud",
      routes: splunkRoutes(state),
      checkRequest: ({ headers }) => {
        if (headers["x-sf-token"] !== token) throw new VendorHttpError(401, "Unauthorized");
      },
      // The v2 API's error body: { code, message }.
      errorBody: (error) => ({ code: error.status, message: error.message }),
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
