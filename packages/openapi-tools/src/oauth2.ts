import { HttpStatusError, requestJson } from "@switchboard/agent-runtime";
import { isSwitchboardError, redactSecrets, SwitchboardError } from "@switchboard/common";
import { basicOf, type Credential } from "./auth.js";

/** A token answer is a few hundred bytes: one far bigger is not one, and is not read. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;
const TOKEN_TIMEOUT_MS = 15_000;
/** A token is renewed this long before it expires, so a call never carries one that lapses on the way. */
const EARLY_MS = 30_000;
/** A token whose answer gives no lifetime is kept at most this long (a 401 renews it sooner). */
const DEFAULT_LIFETIME_MS = 60 * 60 * 1000;
/** RFC 6750's b64token: what a bearer token may hold, so none can add a header or break the line. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

interface Kept {
  token: string;
  expiresAt: number;
}

/**
 * OAuth2 client-credentials tokens (RFC 6749 4.4) of one API, by scheme and scopes: asked for at the
 * flow's token URL with the client's id and secret in HTTP basic, kept until shortly before they
 * expire, one request at a time per key, forgotten when the API refuses one (the caller asks again
 * once). The client secret appears in no message: the token endpoint's own words are redacted.
 */
export class OAuthTokens {
  private readonly kept = new Map<string, Kept>();
  private readonly asking = new Map<string, Promise<Kept>>();

  constructor(
    private readonly options: {
      /** Names the settings to check when the token endpoint refuses the client. */
      variables: (scheme: string) => string;
      now?: () => number;
    },
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  async token(
    credential: Credential,
    client: { id: string; secret: string },
    scopes: string[],
  ): Promise<string> {
    const key = `${credential.scheme}\n${client.id}\n${[...scopes].sort().join(" ")}`;
    const kept = this.kept.get(key);
    if (kept && kept.expiresAt > this.now()) return kept.token;
    let asking = this.asking.get(key);
    if (!asking) {
      asking = this.ask(credential, client, scopes).finally(() => this.asking.delete(key));
      this.asking.set(key, asking);
    }
    const fresh = await asking;
    this.kept.set(key, fresh);
    return fresh.token;
  }

  /** Drops the scheme's tokens: the API refused one (revoked, or expired early). */
  forget(scheme: string): void {
    for (const key of this.kept.keys()) if (key.startsWith(`${scheme}\n`)) this.kept.delete(key);
  }

  /** The tokens held: values no message may show. */
  current(): string[] {
    return [...this.kept.values()].map(({ token }) => token);
  }

  private async ask(
    credential: Credential,
    client: { id: string; secret: string },
    scopes: string[],
  ): Promise<Kept> {
    if (credential.send.in !== "oauth2") throw new Error(`${credential.scheme} is not an OAuth2 scheme`);
    const { tokenUrl } = credential.send;
    const authorization = basicOf(client.id, client.secret);
    const secrets = [client.secret, authorization.slice("Basic ".length), `${client.id}:${client.secret}`];
    const endpoint = `the token URL of auth.${credential.scheme} (${tokenUrl.origin}${tokenUrl.pathname})`;
    const fail = (category: "user" | "third-party", why: string, fix: string) =>
      new SwitchboardError(
        "openapi.oauth2",
        category,
        redactSecrets(`${endpoint} ${why}: ${fix}`, secrets.filter(Boolean)),
      );
    const form = new URLSearchParams({ grant_type: "client_credentials" });
    if (scopes.length > 0) form.set("scope", scopes.join(" "));
    let answer: unknown;
    try {
      answer = await requestJson<unknown>({
        method: "POST",
        url: tokenUrl.href,
        headers: { authorization },
        form,
        // Followed, a redirect would carry the client secret to wherever it points.
        redirect: "manual",
        timeoutMs: TOKEN_TIMEOUT_MS,
        maxAnswerBytes: MAX_TOKEN_ANSWER_BYTES,
      });
    } catch (error) {
      if (error instanceof HttpStatusError) {
        const refused = error.status === 400 || error.status === 401;
        throw fail(
          refused ? "user" : "third-party",
          `answered HTTP ${error.status}${error.detail ? ` (${error.detail})` : ""}`,
          refused
            ? `check ${this.options.variables(credential.scheme)}: the client id or secret may be wrong, or the client may not have these scopes`
            : "try again later, or check tokenUrls",
        );
      }
      if (isSwitchboardError(error) && error.code === "http.answer-too-large")
        throw fail(
          "third-party",
          `answered more than ${MAX_TOKEN_ANSWER_BYTES} bytes`,
          "that is no token answer; check tokenUrls",
        );
      if (error instanceof SyntaxError)
        throw fail(
          "third-party",
          "answered something that is not JSON",
          "check tokenUrls: it is not a token endpoint",
        );
      const cause = (error as { cause?: { code?: string } }).cause;
      const name = error instanceof Error ? error.name : typeof error;
      throw fail(
        "third-party",
        `could not be reached (${cause?.code ?? name})`,
        "check tokenUrls and the network",
      );
    }
    const body = (answer ?? {}) as { access_token?: unknown; token_type?: unknown; expires_in?: unknown };
    const token = body.access_token;
    if (typeof token !== "string" || token.length > 8192 || !BEARER_TOKEN.test(token))
      throw fail(
        "third-party",
        "answered no usable access_token",
        "check tokenUrls: it is not a token endpoint",
      );
    if (typeof body.token_type === "string" && body.token_type.toLowerCase() !== "bearer")
      throw fail(
        "third-party",
        `answered a token of type ${JSON.stringify(body.token_type.slice(0, 40))}`,
        "Switchboard sends only tokens of type bearer",
      );
    const seconds = Number(body.expires_in);
    const lifetime =
      Number.isFinite(seconds) && seconds > 0
        ? Math.min(seconds * 1000, DEFAULT_LIFETIME_MS * 24)
        : DEFAULT_LIFETIME_MS;
    return { token, expiresAt: this.now() + lifetime - Math.min(EARLY_MS, lifetime / 2) };
  }
}
