import { requestJson, VendorClient } from "@switchboard/agent-runtime";
import { type KomodorSettings, readKomodorSettings } from "./env.js";

type Query = Record<string, string | number | string[] | undefined>;

/** Komodor's public API v2 as the tools use it: a path under /api/v2 and its JSON. */
export interface KomodorApi {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body: object): Promise<T>;
  put<T>(path: string, body: object): Promise<T>;
  delete<T>(path: string, body: object): Promise<T>;
}

export type KomodorClient = VendorClient<KomodorApi, KomodorSettings>;

/** Komodor over fetch with its X-API-KEY header (Komodor ships no JavaScript client). The runtime does the rest. */
export function komodorClient(env: NodeJS.ProcessEnv): KomodorClient {
  return new VendorClient(
    {
      vendor: "Komodor",
      code: "komodor",
      settings: readKomodorSettings,
      connect: komodorApi,
      names: ({ url }) => ({
        url,
        credentials: "KOMODOR_TOKEN",
        address: "KOMODOR_API_URL",
        permissionHint: "the API key's user lacks the Komodor RBAC permission for this",
      }),
      secrets: ({ token }) => [token],
    },
    env,
  );
}

function komodorApi({ url, token }: KomodorSettings): KomodorApi {
  const headers = { "x-api-key": token };
  const address = (path: string, query: Query = {}) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      for (const one of [value].flat()) if (one !== undefined) search.append(key, String(one));
    }
    return `${url}/api/v2${path}${search.size > 0 ? `?${search}` : ""}`;
  };
  return {
    get: (path, query) => requestJson({ url: address(path, query), headers }),
    post: (path, body) => requestJson({ method: "POST", url: address(path), headers, body }),
    put: (path, body) => requestJson({ method: "PUT", url: address(path), headers, body }),
    delete: (path, body) => requestJson({ method: "DELETE", url: address(path), headers, body }),
  };
}
