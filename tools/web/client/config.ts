/** How the page signs users in, as the web server is configured (GET /config.json). */
export type SignIn = { mode: "none" } | { mode: "oidc"; issuer: string; clientId: string; scope: string };

/** The web server's settings the page reads: sign-in, and whether there is a knowledge base (ENABLE_RAG). */
export interface PageConfig {
  signIn: SignIn;
  /** Present (true) only when the web chat has a knowledge base. */
  knowledge?: boolean;
}

export async function loadConfig(): Promise<PageConfig> {
  const response = await fetch("/config.json");
  if (!response.ok) throw new Error(`The web server did not give its settings (HTTP ${response.status}).`);
  return (await response.json()) as PageConfig;
}
