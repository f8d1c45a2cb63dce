import { createHash, randomBytes } from "node:crypto";
import type { IdentityProvider } from "./identity-provider.js";

/**
 * Signs a user in as a browser would, without one: the authorization-code flow with PKCE through
 * the provider's own login and consent pages, cookies kept between steps, then the code exchanged
 * at the token endpoint. Returns the access token (an RS256 JWT for the Switchboard audience).
 */
export async function signIn(
  idp: IdentityProvider,
  subject: string,
  /** The resource the token is for (RFC 8707): default the agents' audience. */
  resource = idp.audience,
): Promise<string> {
  const jar = new Map<string, string>();
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const authorize = new URL(`${idp.issuer}/auth`);
  for (const [key, value] of Object.entries({
    client_id: idp.clientId,
    response_type: "code",
    redirect_uri: idp.redirectUri,
    scope: idp.scope,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: randomBytes(8).toString("hex"),
    resource,
  })) {
    authorize.searchParams.set(key, value);
  }

  let url = authorize.toString();
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(idp.redirectUri)) return exchange(idp, new URL(url), verifier, resource);
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") },
      ...(body ? { body } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url).toString();
      body = undefined;
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    if (!action || !prompt)
      throw new Error(
        `The identity provider answered HTTP ${response.status} without a form: ${page.slice(0, 200)}`,
      );
    url = new URL(action, url).toString();
    body = new URLSearchParams(prompt === "login" ? { prompt, login: subject, password: "any" } : { prompt });
  }
  throw new Error("Sign-in did not reach the redirect URI within 20 steps.");
}

async function exchange(
  idp: IdentityProvider,
  callback: URL,
  verifier: string,
  resource: string,
): Promise<string> {
  const code = callback.searchParams.get("code");
  if (!code) throw new Error(`Sign-in ended without a code: ${callback.search}`);
  const response = await fetch(`${idp.issuer}/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: idp.redirectUri,
      client_id: idp.clientId,
      code_verifier: verifier,
      resource,
    }),
  });
  const tokens = (await response.json()) as {
    access_token?: string;
    error?: string;
    error_description?: string;
  };
  if (!tokens.access_token)
    throw new Error(`The token endpoint refused the code: ${tokens.error} ${tokens.error_description ?? ""}`);
  return tokens.access_token;
}
