import type { CatalogClient } from "@backstage/catalog-client";
import { SwitchboardError } from "@switchboard/common";
import { readBackstageSettings } from "./env.js";

/**
 * Backstage's own @backstage/catalog-client, created on first use so the agent starts (and says what
 * is missing) without settings; every failure becomes a message the model or the user can act on.
 */
export class BackstageConnection {
  private client: CatalogClient | undefined;
  private url = "";

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async call<T>(run: (client: CatalogClient, auth: { token: string }) => Promise<T>): Promise<T> {
    const { token } = readBackstageSettings(this.env);
    this.client ??= await this.connect();
    try {
      return await run(this.client, { token });
    } catch (error) {
      throw describeBackstageError(error, this.url);
    }
  }

  /** The catalog client is loaded here, on first use: an agent that is never asked holds no copy of it. */
  private async connect(): Promise<CatalogClient> {
    const { url } = readBackstageSettings(this.env);
    const { CatalogClient } = await import("@backstage/catalog-client");
    this.url = url;
    return new CatalogClient({ discoveryApi: { getBaseUrl: async () => `${url}/api/catalog` } });
  }
}

function describeBackstageError(error: unknown, url: string): Error {
  if (error instanceof SwitchboardError) return error;
  // ResponseError from @backstage/errors: the status and Backstage's own message are in its body.
  const body = (error as { body?: { error?: { message?: string }; response?: { statusCode?: number } } })
    .body;
  const status = body?.response?.statusCode;
  if (status === 401 || status === 403) {
    return new SwitchboardError(
      "backstage.credentials",
      "user",
      `Backstage refused the token (HTTP ${status}): check BACKSTAGE_API_TOKEN and its access restrictions.`,
    );
  }
  if (status) return new Error(`Backstage answered HTTP ${status}: ${body?.error?.message ?? "no message"}`);
  const code = (error as { cause?: { code?: string } }).cause?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND") {
    return new SwitchboardError(
      "backstage.unreachable",
      "third-party",
      `Cannot reach Backstage at ${url} (${code}): check BACKSTAGE_URL.`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
