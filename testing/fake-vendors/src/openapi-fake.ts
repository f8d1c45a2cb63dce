import type { Document } from "openapi-backend";
import { type RouteContext, startVendorServer, type VendorServer } from "./vendor-server.js";

export interface OpenApiFakeOptions {
  /** The API's name, for messages. */
  vendor: string;
  /** Its OpenAPI description (3.x; $refs may stay in). */
  document: Document;
  /** Where the described paths are served, e.g. `/api/v3` (default `/`). */
  apiRoot?: string;
  /** Throws a VendorHttpError when a request's headers are not what the API accepts (default: all pass). */
  checkRequest?: (ctx: RouteContext) => void;
}

/**
 * A fake of any API from its OpenAPI description alone: requests are matched to its operations and
 * validated against them, and every operation answers with the description's own example of its
 * success answer where it is valid, else one made from its schema (openapi-answers.ts). What
 * `pnpm new-agent --openapi` agents are tested against.
 */
export function startOpenApiFake(options: OpenApiFakeOptions): Promise<VendorServer> {
  return startVendorServer({
    name: options.vendor,
    openApi: {
      document: options.document,
      ...(options.apiRoot ? { apiRoot: options.apiRoot } : {}),
      operations: {},
      mockOthers: true,
    },
    checkRequest: options.checkRequest ?? (() => undefined),
    errorBody: (error) => ({ message: error.message, details: error.details }),
  });
}
