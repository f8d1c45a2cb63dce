import { SwitchboardError } from "@switchboard/common";
import { readArgoCdSettings } from "./env.js";

/**
 * Argo CD's REST API (/api/v1, its gRPC gateway) over fetch: Argo CD ships no JavaScript client.
 * Settings are read on each call, so the agent starts (and says what is missing) without them;
 * every failure becomes a message the user can act on, never one that carries the token.
 */
export class ArgoCdClient {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const { url, token } = readArgoCdSettings(this.env);
    let response: Response;
    try {
      response = await fetch(`${url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      const reason = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
      throw new SwitchboardError(
        "argocd.unreachable",
        "third-party",
        `Cannot reach Argo CD at ${url} (${reason}): check ARGOCD_API_URL (a private CA needs NODE_EXTRA_CA_CERTS).`,
      );
    }
    if (response.status === 401) {
      throw new SwitchboardError(
        "argocd.credentials",
        "user",
        "Argo CD refused the token (HTTP 401): check ARGOCD_TOKEN and that it has not expired.",
      );
    }
    const text = await response.text();
    if (!response.ok) {
      // The gateway's error body: { error, code, message }.
      let message = text.slice(0, 300);
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? message;
      } catch {
        // Not JSON (a proxy's page): the text itself says most.
      }
      const hint = response.status === 403 ? " (the token's RBAC does not allow this)" : "";
      throw new Error(`Argo CD answered HTTP ${response.status} to ${method} ${path}: ${message}${hint}`);
    }
    return JSON.parse(text) as T;
  }
}
