import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Document } from "openapi-backend";
import { seedParts } from "../seed.js";
import { type StatefulVendorServer, startStatefulVendorServer, VendorHttpError } from "../vendor-server.js";
import { webexOperations } from "./routes.js";
import { seedWebex } from "./seed.js";
import type { WebexState } from "./state.js";

export type {
  Membership as WebexMembership,
  Message as WebexMessage,
  Room as WebexRoom,
  WebexChange,
  WebexState,
} from "./state.js";

/** Parts of the state a test or an evaluation case can seed, each replacing the default part. */
export type WebexSeed = Partial<Omit<WebexState, "changes">>;

/** Messages posted, rooms created and people added through the API. */
export interface FakeWebex extends StatefulVendorServer<WebexState> {
  /** The API base the agent is pointed at, `<url>/v1`, like https://webexapis.com/v1: WEBEX_API_URL. */
  apiUrl: string;
  /** The access token it accepts as a bearer token: WEBEX_TOKEN. */
  token: string;
}

// specs/ beside src/ and dist/.
const SPEC = join(import.meta.dirname, "..", "..", "specs", "webex", "messaging.json");

/**
 * Starts a Webex messaging API look-alike (rooms, messages and threads, memberships) on /v1, driven by
 * Webex's own OpenAPI description: requests are matched to its operations and validated, answers
 * checked against its schemas.
 */
export async function startFakeWebex(options: { port?: number; seed?: WebexSeed } = {}): Promise<FakeWebex> {
  const token = "fake-webex-token-NjM4";
  const defaults = seedWebex();
  const state: WebexState = {
    ...defaults,
    ...seedParts("Webex", defaults, options.seed, ["me", "people", "rooms", "messages", "memberships"]),
  };
  const document = JSON.parse(await readFile(SPEC, "utf8")) as Document;
  const server = await startStatefulVendorServer(
    {
      name: "Webex",
      openApi: { document, apiRoot: "/v1", operations: webexOperations(state) },
      checkRequest: ({ headers }) => {
        if (headers.authorization !== `Bearer ${token}`)
          throw new VendorHttpError(
            401,
            "The request requires a valid access token set in the Authorization request header.",
          );
      },
      // Webex's error body: message, errors[].description and the trackingId support asks for.
      errorBody: (error) => ({
        message: [error.message, ...error.details].join("; "),
        errors: [{ description: error.message }],
        trackingId: `ROUTER_${randomUUID()}`,
      }),
    },
    state,
    { token },
    options.port,
  );
  return Object.assign(server, { apiUrl: `${server.url}/v1` });
}
