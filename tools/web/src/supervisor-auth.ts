import type { Logger } from "@switchboard/common";

/**
 * With sign-in on, the supervisor must check the tokens the page sends: one that does not
 * (AUTH_MODE=none) serves every signed-in user as the one local user, sharing conversations and
 * memories. Its agent card says whether it asks for a bearer token; read once at start-up, a warning
 * when it does not. One not reachable yet is left alone (it may start after the web chat).
 */
export async function warnIfSupervisorIgnoresTokens(supervisorUrl: URL, logger: Logger): Promise<void> {
  const url = new URL(
    ".well-known/agent-card.json",
    supervisorUrl.href.endsWith("/") ? supervisorUrl : `${supervisorUrl.href}/`,
  );
  let card: { securitySchemes?: Record<string, unknown> };
  try {
    const answer = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (!answer.ok) return;
    card = (await answer.json()) as typeof card;
  } catch {
    return;
  }
  if (Object.keys(card.securitySchemes ?? {}).length > 0) return;
  logger.warn(
    { supervisor: supervisorUrl.origin },
    "The web chat signs users in, but the supervisor does not ask for their tokens (its AUTH_MODE is none): " +
      "every signed-in user acts as the one local user. Set AUTH_MODE=jwt with AUTH_JWKS_URL, AUTH_ISSUER and " +
      "AUTH_AUDIENCE for the agents.",
  );
}
