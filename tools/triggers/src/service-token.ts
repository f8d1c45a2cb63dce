import { SwitchboardError } from "@switchboard/common";

export interface ServiceClient {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string | undefined;
  /** The agents' audience (AUTH_AUDIENCE), asked for as the token's resource (RFC 8707). */
  resource: string | undefined;
}

/** A token is fetched again this long before it expires, so a run never starts on one about to lapse. */
const EARLY_MS = 60_000;

/**
 * The service's own access token, by the OAuth 2.0 client-credentials grant (RFC 6749 §4.4): its
 * principal is its own client (`sub` = client id), which the policies name and grant only what its
 * tasks need. It holds no user's token and no signing key, so it can act as nobody else.
 */
export class ServiceToken {
  private cached: { token: string; until: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly client: ServiceClient) {}

  get(): Promise<string> {
    if (this.cached && Date.now() < this.cached.until) return Promise.resolve(this.cached.token);
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetch(): Promise<string> {
    const { tokenUrl, clientId, clientSecret, scope, resource } = this.client;
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (scope) form.set("scope", scope);
    if (resource) form.set("resource", resource);
    // client_secret_basic: both parts form-encoded first (RFC 6749 §2.3.1).
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
      "base64",
    );
    const fail = (why: string) =>
      new SwitchboardError(
        "triggers.identity",
        "user",
        `The service token could not be had from ${new URL(tokenUrl).origin} (${why}); check DYNAMIC_AGENTS_OAUTH2_CLIENT_ID, DYNAMIC_AGENTS_OAUTH2_CLIENT_SECRET and DYNAMIC_AGENTS_OAUTH2_SCOPE.`,
      );
    const answer = await fetch(tokenUrl, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: form,
      redirect: "error",
      signal: AbortSignal.timeout(10_000),
    }).catch((error: unknown) => {
      throw fail(error instanceof Error ? error.message : String(error));
    });
    const body = (await answer.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    };
    if (!answer.ok || typeof body.access_token !== "string")
      throw fail(typeof body.error === "string" ? body.error : `HTTP ${answer.status}`);
    const lifetimeMs = typeof body.expires_in === "number" ? body.expires_in * 1000 : 300_000;
    this.cached = { token: body.access_token, until: Date.now() + Math.max(0, lifetimeMs - EARLY_MS) };
    return body.access_token;
  }
}
