import { SwitchboardError } from "@switchboard/common";

export interface KomodorSettings {
  /** The API's base, without a trailing slash. */
  url: string;
  token: string;
}

export const DEFAULT_KOMODOR_API_URL = "https://api.komodor.com";

/** Komodor settings under CAIPE's names (KOMODOR_TOKEN, KOMODOR_API_URL); a missing key fails the turn. */
export function readKomodorSettings(env: NodeJS.ProcessEnv): KomodorSettings {
  const token = env.KOMODOR_TOKEN?.trim() ?? "";
  if (!token) {
    throw new SwitchboardError(
      "komodor.credentials",
      "user",
      "The Komodor agent is not configured: set KOMODOR_TOKEN (an API key from Komodor's Settings > API Keys).",
    );
  }
  return { url: (env.KOMODOR_API_URL?.trim() || DEFAULT_KOMODOR_API_URL).replace(/\/+$/, ""), token };
}
