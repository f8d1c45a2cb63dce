import { isSwitchboardError, redactSecrets, SwitchboardError } from "@switchboard/common";
import { describeFailure, type FailureNames } from "./describe.js";
import { classifyFailure, mergeFailure, type VendorFailure, type VendorReading } from "./failure.js";

/**
 * Everything particular to one vendor's API; `VendorClient` does the rest the same way for all.
 * `Settings` are what the agent reads from the env, `Client` what its library gives.
 */
export interface VendorSpec<Client, Settings> {
  /** As people name it: "Jira", "GitHub". */
  vendor: string;
  /** Prefix of the error codes: `jira` gives `jira.credentials`. */
  code: string;
  /** Reads the settings; throws a `user` SwitchboardError naming what is missing. */
  settings: (env: NodeJS.ProcessEnv) => Settings;
  /**
   * Creates the client. Import the vendor's library here, not at the top of the file: an agent that
   * is never asked holds no copy of it.
   */
  connect: (settings: Settings) => Promise<Client> | Client;
  /** The API's address (named when it cannot be reached) and the settings to check. */
  names: (settings: Settings) => Omit<FailureNames, "vendor" | "code">;
  /** Values no message may show (tokens, keys, passwords); the common patterns are removed anyway. */
  secrets?: (settings: Settings) => string[];
  /**
   * The vendor's own reading of what its client threw (its error class, its error body): laid over
   * the generic reading (status, network code, timeout, Retry-After).
   */
  classify?: (error: unknown, settings: Settings) => VendorReading | undefined;
  /**
   * A message of the vendor's own for a failure the generic wording would mislead on (it is
   * redacted like every other).
   */
  describe?: (failure: VendorFailure, settings: Settings, error: unknown) => SwitchboardError | undefined;
}

/**
 * A vendor's API client, created on first use (so the agent starts, and says what is missing,
 * without credentials), with every failure of a call turned into one error that names the
 * problem and the fix and carries no secret.
 */
export class VendorClient<Client, Settings> {
  private connected: Promise<{ client: Client; settings: Settings }> | undefined;

  constructor(
    private readonly spec: VendorSpec<Client, Settings>,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Runs one call with the client (and the settings it was made from). */
  async call<T>(run: (client: Client, settings: Settings) => Promise<T>): Promise<T> {
    const { client, settings } = await this.connection();
    try {
      return await run(client, settings);
    } catch (error) {
      throw this.describe(error, settings);
    }
  }

  /** The error a failure becomes (exposed for calls made outside `call`, e.g. a stream). */
  describe(error: unknown, settings: Settings): SwitchboardError {
    const secrets = this.spec.secrets?.(settings) ?? [];
    if (isSwitchboardError(error)) return redacted(error, secrets);
    const failure = mergeFailure(classifyFailure(error), this.spec.classify?.(error, settings));
    if (failure.kind === "unknown" && !failure.detail) {
      failure.detail = error instanceof Error ? error.message : String(error);
    }
    const own = this.spec.describe?.(failure, settings, error);
    if (own) return redacted(own, secrets);
    const names = { vendor: this.spec.vendor, code: this.spec.code, ...this.spec.names(settings) };
    return describeFailure(failure, names, secrets);
  }

  private connection(): Promise<{ client: Client; settings: Settings }> {
    if (!this.connected) {
      const attempt = (async () => {
        const settings = this.spec.settings(this.env);
        return { client: await this.spec.connect(settings), settings };
      })();
      // A failed start (missing settings) is tried again on the next call: the user may fix it.
      attempt.catch(() => {
        if (this.connected === attempt) this.connected = undefined;
      });
      this.connected = attempt;
    }
    return this.connected;
  }
}

function redacted(error: SwitchboardError, secrets: string[]): SwitchboardError {
  const message = redactSecrets(error.message, secrets);
  return message === error.message ? error : new SwitchboardError(error.code, error.category, message);
}
