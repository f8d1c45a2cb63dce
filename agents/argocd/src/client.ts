import { dispatcherFor, requestJson, VendorClient } from "@switchboard/agent-runtime";
import { type ArgoCdSettings, readArgoCdSettings } from "./env.js";
import type { ArgoApplication } from "./format.js";

/** The calls the tools make to Argo CD's REST API (/api/v1, its gRPC gateway). */
export interface ArgoCdApi {
  listApplications(project?: string): Promise<{ items?: ArgoApplication[] | null }>;
  getApplication(name: string): Promise<ArgoApplication>;
  sync(name: string, body: { prune: boolean; revision?: string }): Promise<ArgoApplication>;
  rollback(name: string, body: { id: number; prune: boolean }): Promise<ArgoApplication>;
}

export type ArgoCdClient = VendorClient<ArgoCdApi, ArgoCdSettings>;

/**
 * Argo CD over fetch (it ships no JavaScript client): what is particular to Argo CD; the runtime does
 * the rest. The gateway's error body ({ error, code, message }) becomes the message's detail.
 */
export function argoCdClient(env: NodeJS.ProcessEnv): ArgoCdClient {
  return new VendorClient(
    {
      vendor: "Argo CD",
      code: "argocd",
      settings: readArgoCdSettings,
      connect: ({ url, token, verifyTls }) => argoCdApi(url, token, verifyTls),
      names: ({ url }) => ({
        url,
        credentials: "ARGOCD_TOKEN",
        address: "ARGOCD_API_URL",
        permissionHint: "the token's RBAC does not allow this",
      }),
      secrets: ({ token }) => [token],
      // A token of the user's own Argo CD account (argocd account generate-token) acts as them.
      linkedToken: (token) => ({ ARGOCD_TOKEN: token }),
    },
    env,
  );
}

function argoCdApi(url: string, token: string, verifyTls: boolean): ArgoCdApi {
  const dispatcher = dispatcherFor(verifyTls);
  const request = <T>(method: "GET" | "POST", path: string, body?: object) =>
    requestJson<T>({
      method,
      url: `${url}/api/v1${path}`,
      headers: { authorization: `Bearer ${token}` },
      body,
      ...(dispatcher ? { dispatcher } : {}),
    });
  const app = (name: string) => `/applications/${encodeURIComponent(name)}`;
  return {
    listApplications: (project) =>
      request("GET", `/applications${project ? `?projects=${encodeURIComponent(project)}` : ""}`),
    getApplication: (name) => request("GET", app(name)),
    sync: (name, body) => request("POST", `${app(name)}/sync`, { name, ...body }),
    rollback: (name, body) => request("POST", `${app(name)}/rollback`, { name, ...body }),
  };
}
