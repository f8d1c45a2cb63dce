import { SwitchboardError } from "@switchboard/common";
import { API_AUTH, DEFAULT_API_URL } from "./operations.js";

export interface PetstoreSettings {
  url: string;
  apiKey: string | undefined;
}

/**
 * The API's address (PETSTORE_API_URL, by default the description's server) and its key
 * (PETSTORE_API_KEY, required when the description declares a key or bearer scheme); a missing one
 * fails the turn that needs it, naming it.
 */
export function readPetstoreSettings(env: NodeJS.ProcessEnv): PetstoreSettings {
  const url = env.PETSTORE_API_URL?.trim() || DEFAULT_API_URL;
  const apiKey = env.PETSTORE_API_KEY?.trim() || undefined;
  const missing = [
    ...(url ? [] : ["PETSTORE_API_URL"]),
    ...(API_AUTH && !apiKey ? ["PETSTORE_API_KEY"] : []),
  ];
  if (missing.length > 0) {
    throw new SwitchboardError(
      "petstore.credentials",
      "user",
      `The Petstore agent is not configured: set ${missing.join(", ")} (the API's base URL and its API key).`,
    );
  }
  return { url: url.replace(/\/+$/, ""), apiKey };
}
