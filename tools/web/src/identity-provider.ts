import type { Logger } from "@switchboard/common";

/**
 * The origins the page calls at the identity provider (discovery, token, user info, JWKS), read
 * from its discovery document; the issuer's origin alone when that cannot be read now.
 */
export async function identityProviderOrigins(issuer: string, logger: Logger): Promise<string[]> {
  const origins = new Set([new URL(issuer).origin]);
  const discovery = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  try {
    const response = await fetch(discovery, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const document = (await response.json()) as Record<string, unknown>;
    for (const key of ["token_endpoint", "userinfo_endpoint", "jwks_uri", "end_session_endpoint"]) {
      const value = document[key];
      if (typeof value === "string") origins.add(new URL(value).origin);
    }
  } catch (error) {
    logger.warn(
      { discovery, reason: error instanceof Error ? error.message : String(error) },
      "could not read the identity provider's discovery document; the page may call only the issuer's origin",
    );
  }
  return [...origins];
}
