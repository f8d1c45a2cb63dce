import { SwitchboardError } from "@switchboard/common";
import { createRemoteJWKSet, type JWTVerifyGetKey, jwtVerify } from "jose";

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in?: number;
}

/** Who signed in, from a verified ID token. */
export interface SignedInUser {
  subject: string;
  name?: string;
  /** The email the token names, and whether the provider says it verified it (`email_verified: true`). */
  email?: string;
  emailVerified: boolean;
}

/**
 * What the link always asks for, whatever OIDC_SCOPE adds: `openid` (an ID token), `email` (the tie
 * between the sign-in and the Slack account, compared before anything is linked) and
 * `offline_access` (the relay signs the user in again without them: a refresh token).
 */
const REQUIRED_SCOPES = ["openid", "email", "offline_access"];

/**
 * The OpenID Connect calls the account link makes at the web chat's identity provider, as the web
 * chat's own (public) client: authorization code with PKCE, refresh, and ID token verification
 * against the provider's keys. Endpoints come from its discovery document.
 */
export class OidcClient {
  private discovery: Promise<Discovery> | undefined;
  private keys: JWTVerifyGetKey | undefined;

  constructor(
    readonly issuer: string,
    readonly clientId: string,
    private readonly scope: string,
  ) {}

  async authorizeUrl(redirectUri: string, state: string, challenge: string): Promise<string> {
    const url = new URL((await this.endpoints()).authorization_endpoint);
    const scopes = new Set([...this.scope.split(/\s+/).filter(Boolean), ...REQUIRED_SCOPES]);
    for (const [key, value] of Object.entries({
      client_id: this.clientId,
      response_type: "code",
      redirect_uri: redirectUri,
      scope: [...scopes].join(" "),
      state,
      code_challenge: challenge,
      code_challenge_method: "S256",
      // Providers grant offline access only on an explicit consent.
      prompt: "consent",
    })) {
      url.searchParams.set(key, value);
    }
    return url.toString();
  }

  exchange(code: string, verifier: string, redirectUri: string): Promise<TokenSet> {
    return this.token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      redirect_uri: redirectUri,
    });
  }

  refresh(refreshToken: string): Promise<TokenSet> {
    return this.token({ grant_type: "refresh_token", refresh_token: refreshToken });
  }

  async verifyIdToken(idToken: string): Promise<SignedInUser> {
    const { jwks_uri } = await this.endpoints();
    this.keys ??= createRemoteJWKSet(new URL(jwks_uri));
    const { payload } = await jwtVerify(idToken, this.keys, { issuer: this.issuer, audience: this.clientId });
    if (typeof payload.sub !== "string" || !payload.sub) throw new Error("The ID token names no subject.");
    const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);
    const name = text(payload.name) ?? text(payload.preferred_username);
    const email = text(payload.email);
    return {
      subject: payload.sub,
      ...(name ? { name } : {}),
      ...(email ? { email } : {}),
      // Only an explicit true counts: a provider that does not say has not verified it.
      emailVerified: payload.email_verified === true,
    };
  }

  private async token(params: Record<string, string>): Promise<TokenSet> {
    const { token_endpoint } = await this.endpoints();
    const response = await fetch(token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ ...params, client_id: this.clientId }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json().catch(() => ({}))) as Partial<TokenSet> & { error?: string };
    if (!response.ok || !body.access_token) {
      throw new SwitchboardError(
        "slack-bot.token",
        body.error === "invalid_grant" ? "user" : "third-party",
        `The identity provider refused the ${params.grant_type} grant (${body.error ?? `HTTP ${response.status}`}).`,
      );
    }
    return body as TokenSet;
  }

  private endpoints(): Promise<Discovery> {
    this.discovery ??= (async () => {
      const url = `${this.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
      return (await response.json()) as Discovery;
    })().catch((error: unknown) => {
      this.discovery = undefined;
      throw error;
    });
    return this.discovery;
  }
}
