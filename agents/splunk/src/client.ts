import { requestJson, VendorClient } from "@switchboard/agent-runtime";
import { readSplunkSettings, type SplunkSettings } from "./env.js";

type Query = Record<string, string | number | boolean | undefined>;

/** Splunk Observability Cloud's REST API v2 as the tools use it: a path under /v2 and its JSON. */
export interface SplunkApi {
  get<T>(path: string, query?: Query): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
}

export type SplunkClient = VendorClient<SplunkApi, SplunkSettings>;

/**
 * Splunk Observability Cloud (SignalFx) over fetch with the X-SF-TOKEN header. Its JavaScript
 * library (`signalfx`) sends data points and runs SignalFlow; it has no calls for detectors,
 * incidents, muting rules or the metadata searches, which are plain JSON. The runtime does the rest.
 */
export function splunkClient(env: NodeJS.ProcessEnv): SplunkClient {
  return new VendorClient(
    {
      vendor: "Splunk Observability Cloud",
      code: "splunk",
      settings: readSplunkSettings,
      connect: splunkApi,
      names: ({ url }) => ({
        url,
        credentials: "SPLUNK_TOKEN",
        address: "SPLUNK_API_URL",
        permissionHint: "changing detectors and muting rules needs a token of a user with write access",
      }),
      secrets: ({ token }) => [token],
    },
    env,
  );
}

function splunkApi({ url, token }: SplunkSettings): SplunkApi {
  const headers = { "x-sf-token": token };
  const address = (path: string, query: Query = {}) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    return `${url}/v2${path}${search.size > 0 ? `?${search}` : ""}`;
  };
  return {
    get: (path, query) => requestJson({ url: address(path, query), headers }),
    put: (path, body) => requestJson({ method: "PUT", url: address(path), headers, body }),
    post: (path, body) => requestJson({ method: "POST", url: address(path), headers, body }),
  };
}
