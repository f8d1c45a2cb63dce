import { createHash } from "node:crypto";
import { isSwitchboardError, redactSecrets, SwitchboardError } from "@switchboard/common";
import type { CallCredential, ToolCallContext } from "../context/tool-call-context.js";
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
  /**
   * For vendors that take a user's own token: the settings that token stands in for, e.g.
   * `(token) => ({ GITHUB_PERSONAL_ACCESS_TOKEN: token })`, laid over the env for that user's calls.
   * The agent declares the vendor in `AgentDefinition.linkedTokens` (same code).
   */
  linkedToken?: (token: string, caller: { email?: string }) => NodeJS.ProcessEnv;
}

/** Clients kept for users' linked tokens, the least recently used dropped beyond this. */
const MAX_USER_CLIENTS = 100;

/**
 * A vendor's API client, created on first use (so the agent starts, and says what is missing,
 * without credentials), with every failure of a call turned into one error that names the
 * problem and the fix and carries no secret.
 */
export class VendorClient<Client, Settings> {
  private connected: Promise<{ client: Client; settings: Settings }> | undefined;
  /** Clients on users' linked tokens, by a hash of the token (see `call`). */
  private readonly userClients = new Map<string, Promise<{ client: Client; settings: Settings }>>();

  constructor(
    private readonly spec: VendorSpec<Client, Settings>,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * Runs one call with the client (and the settings it was made from): the caller's own client
   * when the tool call's guard chose their linked token for this vendor (`ctx.credential`, from
   * the tool's `run(args, ctx)`), else the service's.
   */
  async call<T>(
    ctx: Pick<ToolCallContext, "credential">,
    run: (client: Client, settings: Settings) => Promise<T>,
  ): Promise<T> {
    const credential = ctx.credential;
    const linked = this.spec.linkedToken && credential?.vendor === this.spec.code ? credential : undefined;
    const { client, settings } = await (linked ? this.userConnection(linked) : this.connection());
    try {
      return await run(client, settings);
    } catch (error) {
      throw this.describe(error, settings, linked !== undefined);
    }
  }

  /** The error a failure becomes (exposed for calls made outside `call`, e.g. a stream). */
  describe(error: unknown, settings: Settings, linked = false): SwitchboardError {
    const secrets = this.spec.secrets?.(settings) ?? [];
    if (isSwitchboardError(error)) return redacted(error, secrets);
    const failure = mergeFailure(classifyFailure(error), this.spec.classify?.(error, settings));
    if (failure.kind === "unknown" && !failure.detail) {
      failure.detail = error instanceof Error ? error.message : String(error);
    }
    const own = this.spec.describe?.(failure, settings, error);
    if (own) return redacted(own, secrets);
    const names = { vendor: this.spec.vendor, code: this.spec.code, ...this.spec.names(settings) };
    // The user's own token: theirs to renew, where they linked it.
    if (linked)
      names.credentials = `the ${this.spec.vendor} token you linked (link a new one under Linked tokens)`;
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

  /** A client on one user's token, made once and kept (bounded) while the token is the same. */
  private userConnection(credential: CallCredential): Promise<{ client: Client; settings: Settings }> {
    const key = createHash("sha256")
      .update(`${credential.email ?? ""}\n${credential.token}`)
      .digest("hex");
    let connected = this.userClients.get(key);
    if (connected) this.userClients.delete(key);
    else {
      const overrides = this.spec.linkedToken?.(credential.token, {
        ...(credential.email ? { email: credential.email } : {}),
      });
      connected = (async () => {
        const settings = this.spec.settings({ ...this.env, ...overrides });
        return { client: await this.spec.connect(settings), settings };
      })();
      connected.catch(() => this.userClients.delete(key));
    }
    this.userClients.set(key, connected);
    const oldest = this.userClients.keys().next().value;
    if (this.userClients.size > MAX_USER_CLIENTS && oldest !== undefined) this.userClients.delete(oldest);
    return connected;
  }
}

function redacted(error: SwitchboardError, secrets: string[]): SwitchboardError {
  const message = redactSecrets(error.message, secrets);
  return message === error.message ? error : new SwitchboardError(error.code, error.category, message);
}
