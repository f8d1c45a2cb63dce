/** How the page signs users in, as the web server is configured (GET /config.json). */
export type SignIn = { mode: "none" } | { mode: "oidc"; issuer: string; clientId: string; scope: string };

export async function loadConfig(): Promise<{ signIn: SignIn }> {
  const response = await fetch("/config.json");
  if (!response.ok) throw new Error(`The web server did not give its settings (HTTP ${response.status}).`);
  return (await response.json()) as { signIn: SignIn };
}
