import { requestJson, VendorClient } from "@switchboard/agent-runtime";
import { type PetstoreSettings, readPetstoreSettings } from "./env.js";
import { answerText, type Operation, requestOf } from "./openapi.js";
import { API_AUTH } from "./operations.js";

/** The one call the tools make: an operation of the description with the model's arguments. */
export interface PetstoreApi {
  call(operation: Operation, args: Record<string, unknown>): Promise<string>;
}

export type PetstoreClient = VendorClient<PetstoreApi, PetstoreSettings>;

/**
 * The Petstore API at PETSTORE_API_URL over fetch, with PETSTORE_API_KEY sent as its description's
 * security scheme says. The runtime does the rest: settings read on first use (the agent starts, and
 * says what is missing, without them), and every failure turned into a message naming the fix
 * (credentials refused, not found, rate limited, unreachable, timeout) with no key in it.
 */
export function petstoreClient(env: NodeJS.ProcessEnv): PetstoreClient {
  return new VendorClient(
    {
      vendor: "the Petstore API",
      code: "petstore",
      settings: readPetstoreSettings,
      connect: ({ url, apiKey }) => ({
        call: async (operation, args) =>
          answerText(await requestJson(requestOf(operation, args, url, API_AUTH, apiKey))),
      }),
      names: ({ url }) => ({ url, credentials: "PETSTORE_API_KEY", address: "PETSTORE_API_URL" }),
      secrets: ({ apiKey }) => (apiKey ? [apiKey] : []),
    },
    env,
  );
}
