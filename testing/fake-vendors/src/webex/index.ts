import { randomUUID } from "node:crypto";
import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { webexRoutes } from "./routes.js";
import { seedWebex } from "./seed.js";
import type { WebexChange, WebexState } from "./state.js";

export type {
  Membership as WebexMembership,
  Message as WebexMessage,
  Room as WebexRoom,
  WebexChange,
  WebexState,
} from "./state.js";

export interface FakeWebex extends VendorServer {
  /** The API base the agent is pointed at, `<url>/v1`, like https://webexapis.com/v1: WEBEX_API_URL. */
  apiUrl: string;
  /** The access token it accepts as a bearer token: WEBEX_TOKEN. */
  token: string;
  state: WebexState;
  /** Messages posted, rooms created and people added through the API, oldest first. */
  readonly changes: WebexChange[];
}

/** Starts a Webex messaging API look-alike (rooms, messages and threads, memberships) on /v1. */
export async function startFakeWebex(options: { port?: number } = {}): Promise<FakeWebex> {
  const token = "fake-webex-token-NjM4";
  const state = seedWebex();
  const server = await startVendorServer(
    {
      name: "Webex",
      routes: webexRoutes(state),
      checkRequest: ({ headers }) => {
        if (headers.authorization !== `Bearer ${token}`)
          throw new VendorHttpError(
            401,
            "The request requires a valid access token set in the Authorization request header.",
          );
      },
      // Webex's error body: message, errors[].description and the trackingId support asks for.
      errorBody: (error) => ({
        message: error.message,
        errors: [{ description: error.message }],
        trackingId: `ROUTER_${randomUUID()}`,
      }),
    },
    options.port,
  );
  return {
    ...server,
    apiUrl: `${server.url}/v1`,
    token,
    state,
    get changes() {
      return state.changes;
    },
  };
}
