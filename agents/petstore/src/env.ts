import { baseUrlSetting, notConfigured, parseEnv } from "@switchboard/common";
import { z } from "zod";
import { API_AUTH, DEFAULT_API_URL } from "./operations.js";

export interface PetstoreSettings {
  url: string;
  apiKey: string | undefined;
}

const PetstoreEnv = z.object({
  // The description's server, when it names one.
  PETSTORE_API_URL: baseUrlSetting(DEFAULT_API_URL || undefined),
  // Required when the description declares a key or bearer scheme.
  PETSTORE_API_KEY: (API_AUTH ? z.string().trim() : z.string().trim().optional()) as z.ZodType<
    string | undefined
  >,
});

/**
 * The API's address (PETSTORE_API_URL, by default the description's server) and its key
 * (PETSTORE_API_KEY, required when the description declares a key or bearer scheme); a missing one
 * fails the turn that needs it, naming it.
 */
export function readPetstoreSettings(env: NodeJS.ProcessEnv): PetstoreSettings {
  const e = parseEnv(PetstoreEnv, env, {
    code: "petstore.credentials",
    what: "Petstore settings",
    unset: notConfigured("Petstore", "the API's base URL and its API key"),
  });
  return { url: e.PETSTORE_API_URL, apiKey: e.PETSTORE_API_KEY };
}
