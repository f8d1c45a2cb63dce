import { SwitchboardError } from "@switchboard/common";
import type { ConfluenceClient } from "confluence.js";
import { readConfluenceSettings } from "./env.js";

/**
 * The confluence.js client (REST API v1), created on first use so the agent starts (and says what is
 * missing) without credentials; every call's failure becomes a message the model or the user can act on.
 */
export class ConfluenceConnection {
  private client: ConfluenceClient | undefined;
  private url = "";

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  async call<T>(run: (client: ConfluenceClient) => Promise<T>): Promise<T> {
    this.client ??= await this.connect();
    try {
      return await run(this.client);
    } catch (error) {
      throw describeConfluenceError(error, this.url);
    }
  }

  /** confluence.js is loaded here, on first use: an agent that is never asked holds no copy of it. */
  private async connect(): Promise<ConfluenceClient> {
    const { url, email, token } = readConfluenceSettings(this.env);
    const { ConfluenceClient } = await import("confluence.js");
    this.url = url;
    return new ConfluenceClient({ host: url, authentication: { basic: { email, apiToken: token } } });
  }
}

function describeConfluenceError(error: unknown, url: string): Error {
  if (error instanceof SwitchboardError) return error;
  // confluence.js rejects with Confluence's error body: { statusCode, message, data }.
  const { statusCode, message } = error as { statusCode?: number; message?: string };
  if (statusCode === 401 || statusCode === 403) {
    return new SwitchboardError(
      "confluence.credentials",
      "user",
      `Confluence refused the credentials (HTTP ${statusCode}): check CONFLUENCE_USERNAME and CONFLUENCE_API_TOKEN, and that the account can see this space.`,
    );
  }
  if (statusCode) return new Error(`Confluence answered HTTP ${statusCode}: ${message ?? "no message"}`);
  const code =
    (error as { code?: string; cause?: { code?: string } })?.cause?.code ??
    (error as { code?: string })?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND") {
    return new SwitchboardError(
      "confluence.unreachable",
      "third-party",
      `Cannot reach Confluence at ${url} (${code}): check CONFLUENCE_API_URL.`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}
