import { nextAfter, seedParts } from "../seed.js";
import { startVendorServer, VendorHttpError, type VendorServer } from "../vendor-server.js";
import { confluenceRoutes } from "./routes.js";
import { seedConfluence } from "./seed.js";
import type { ConfluenceState, PageChange } from "./state.js";

export type { ConfluenceState, Grantees, Page, PageChange, Space } from "./state.js";

/** Parts of the state a test or an evaluation case can seed, each replacing the default part. */
export type ConfluenceSeed = Partial<Pick<ConfluenceState, "spaces" | "pages">>;

export interface FakeConfluence extends VendorServer {
  /** Basic auth: the account's email and API token (CONFLUENCE_USERNAME, CONFLUENCE_API_TOKEN). */
  email: string;
  token: string;
  state: ConfluenceState;
  /** Pages created and updated through the API, oldest first. */
  readonly changes: PageChange[];
}

/** Starts a Confluence Cloud REST API v1 look-alike (search, content) for the real confluence.js client. */
export async function startFakeConfluence(
  options: { port?: number; seed?: ConfluenceSeed } = {},
): Promise<FakeConfluence> {
  const email = "agent@example.com";
  const token = "fake-confluence-token";
  const expected = `Basic ${Buffer.from(`${email}:${token}`).toString("base64")}`;
  const defaults = seedConfluence();
  const state: ConfluenceState = {
    ...defaults,
    ...seedParts("Confluence", defaults, options.seed, ["spaces", "pages"]),
  };
  state.nextId = nextAfter(
    state.nextId,
    state.pages.map((page) => page.id),
  );
  const server = await startVendorServer(
    {
      name: "Confluence",
      routes: confluenceRoutes(state),
      checkRequest: ({ headers }) => {
        if (headers.authorization !== expected)
          throw new VendorHttpError(401, "Current user not permitted to use Confluence");
      },
      // Confluence's REST v1 error body.
      errorBody: (error) => ({
        statusCode: error.status,
        data: {
          authorized: error.status !== 401,
          valid: error.status !== 400,
          errors: [],
          successful: false,
        },
        message: error.message,
      }),
    },
    options.port,
  );
  return {
    ...server,
    email,
    token,
    state,
    get changes() {
      return state.changes;
    },
  };
}
