import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface KomodorSettings {
  /** The API's base, without a trailing slash. */
  url: string;
  token: string;
}

export const DEFAULT_KOMODOR_API_URL = "https://api.komodor.com";

const KomodorEnv = z.object({
  KOMODOR_TOKEN: z.string().trim(),
  KOMODOR_API_URL: baseUrlSetting(DEFAULT_KOMODOR_API_URL),
});

/** Komodor settings under CAIPE's names (KOMODOR_TOKEN, KOMODOR_API_URL); a missing key fails the turn. */
export function readKomodorSettings(env: NodeJS.ProcessEnv): KomodorSettings {
  const e = parseEnv(KomodorEnv, env, {
    code: "komodor.credentials",
    what: "Komodor settings",
    unset: notConfigured("Komodor", "an API key from Komodor's Settings > API Keys"),
  });
  return { url: e.KOMODOR_API_URL, token: e.KOMODOR_TOKEN };
}
