import type { CatalogClient } from "@backstage/catalog-client";
import { VendorClient } from "@switchboard/agent-runtime";
import { type BackstageSettings, readBackstageSettings } from "./env.js";

/** Each call passes `{ token }` from the settings: the catalog client sends it as a bearer token. */
export type BackstageConnection = VendorClient<CatalogClient, BackstageSettings>;

/** Backstage's own @backstage/catalog-client: what is particular to Backstage; the runtime does the rest. */
export function backstageConnection(env: NodeJS.ProcessEnv): BackstageConnection {
  return new VendorClient(
    {
      vendor: "Backstage",
      code: "backstage",
      settings: readBackstageSettings,
      connect: async ({ url }) => {
        const { CatalogClient } = await import("@backstage/catalog-client");
        return new CatalogClient({ discoveryApi: { getBaseUrl: async () => `${url}/api/catalog` } });
      },
      names: ({ url }) => ({
        url,
        credentials: "BACKSTAGE_API_TOKEN",
        address: "BACKSTAGE_URL",
        permissionHint: "the token's access restrictions in backend.auth.externalAccess",
      }),
      secrets: ({ token }) => [token],
      classify: backstageFailure,
    },
    env,
  );
}

/** ResponseError from @backstage/errors: Backstage's own message is in its body. */
function backstageFailure(error: unknown): { detail?: string } | undefined {
  const message = (error as { body?: { error?: { message?: unknown } } }).body?.error?.message;
  return typeof message === "string" && message ? { detail: message } : undefined;
}
