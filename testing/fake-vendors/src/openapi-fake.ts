import type { Document } from "openapi-backend";
import { type OpenApiSecurity, openApiSecurity } from "./openapi-security.js";
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
  /**
   * Security scheme → the credential it accepts (apiKey: the key; http bearer: the token; basic and
   * oauth2 client credentials: `id:secret`). With it, every request must carry what its operation's
   * security accepts, and one under `security: []` nothing (see openapi-security.ts).
   */
  credentials?: Record<string, string>;
}

/** The fake, with what its security check saw (empty without `credentials`). */
export interface OpenApiFake extends VendorServer {
  readonly received: OpenApiSecurity["received"];
  /** OAuth2 tokens issued by its token endpoint. */
  readonly issued: string[];
  revokeTokens(): void;
}

/**
 * A fake of any API from its OpenAPI description alone: requests are matched to its operations and
 * validated against them, and every operation answers with the description's own example of its
 * success answer where it is valid, else one made from its schema (openapi-answers.ts). What
 * `pnpm new-agent --openapi` agents are tested against.
 */
export async function startOpenApiFake(options: OpenApiFakeOptions): Promise<OpenApiFake> {
  const security = options.credentials
    ? openApiSecurity(
        options.document,
        options.credentials,
        options.apiRoot ? { apiRoot: options.apiRoot } : {},
      )
    : undefined;
  const server = await startVendorServer({
    name: options.vendor,
    openApi: {
      document: options.document,
      ...(options.apiRoot ? { apiRoot: options.apiRoot } : {}),
      operations: {},
      mockOthers: true,
    },
    ...(security ? { before: security.answer } : {}),
    checkRequest: (ctx) => {
      security?.check(ctx);
      options.checkRequest?.(ctx);
    },
    errorBody: (error) => ({ message: error.message, details: error.details }),
  });
  return Object.assign(server, {
    received: security?.received ?? [],
    issued: security?.issued ?? [],
    revokeTokens: () => security?.revokeTokens(),
  });
}
