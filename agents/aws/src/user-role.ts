import { createHash } from "node:crypto";
import type { AssumeRoleWithWebIdentityCommandOutput, STSClient } from "@aws-sdk/client-sts";
import type { ToolCallContext } from "@switchboard/agent-runtime";
import { getLogger, maskSecrets, SwitchboardError } from "@switchboard/common";
import type { AwsKeys, AwsSettings, WebIdentityRole } from "./env.js";

/** The signed-in caller of a tool call, as AWS will know them. */
export interface SignedInUser {
  /** The verified token's subject: whose role session this is. */
  subject: string;
  /** How messages name the user: email, else name, else subject. */
  label: string;
  /** The role session name: who CloudTrail and IAM's `aws:userid` show. */
  sessionName: string;
  /** The user's own OIDC token: sent to STS, never kept. */
  token: string;
}

/** A user's role session: the temporary keys STS gave for them, until `expiration`. */
export interface RoleSession {
  credentials: AwsKeys & { expiration: Date };
  /** `arn:aws:sts::<account>:assumed-role/<role>/<session name>`, as STS answered. */
  arn: string;
}

/**
 * A session is taken anew this long before it expires, so no call starts on keys that lapse while it
 * runs (the AWS SDK refreshes its own credentials 5 minutes early too).
 */
const RENEW_BEFORE_MS = 5 * 60_000;

/**
 * The caller of a tool call when they signed in (AUTH_MODE=jwt: a verified token and its principal);
 * undefined for an anonymous caller (AUTH_MODE=none), whose calls use the agent's own credentials.
 */
export function signedInUser(ctx: Pick<ToolCallContext, "principal" | "token">): SignedInUser | undefined {
  const { token, principal } = ctx;
  if (!principal.authenticated || !principal.subject) return undefined;
  // Signed in, but through the supervisor, which hands the user's identity-provider token to no agent
  // unless told to: never the agent's own credentials in place of the user's role.
  if (!token) {
    throw new SwitchboardError(
      "aws.web_identity",
      "user",
      "This agent takes the user's own AWS role (AWS_WEB_IDENTITY_ROLE_ARN), which needs the user's identity-provider token, and the supervisor did not pass it on: add aws to the supervisor's AUTH_FORWARD_USER_TOKEN_TO.",
    );
  }
  return {
    subject: principal.subject,
    label: principal.email ?? principal.name ?? principal.subject,
    sessionName: roleSessionName(principal.email ?? principal.subject),
    token,
  };
}

/**
 * A role session name for a user, by STS's rule (2 to 64 of `[\w+=,.@-]`): the email or subject as it
 * is when it fits, else cleaned and cut, with a hash of the original so two users whose names clean
 * alike keep apart.
 */
export function roleSessionName(who: string): string {
  const cleaned = who.replace(/[^\w+=,.@-]/g, "-");
  if (cleaned === who && who.length >= 2 && who.length <= 64) return who;
  const hash = createHash("sha256").update(who).digest("hex").slice(0, 8);
  return `${cleaned.slice(0, 55)}-${hash}`;
}

/** What STS answers when the token itself is not accepted (issuer, audience, signature, expiry). */
const TOKEN_REFUSALS = new Set([
  "InvalidIdentityTokenException",
  "InvalidIdentityToken",
  "IDPRejectedClaimException",
  "IDPRejectedClaim",
  "ExpiredTokenException",
  "IDPCommunicationErrorException",
  "IDPCommunicationError",
]);

/**
 * Each signed-in user's role session, taken with STS AssumeRoleWithWebIdentity on their own token and
 * kept in memory (never stored) until shortly before it expires. AssumeRoleWithWebIdentity is an
 * unsigned call: the agent's own credentials take no part in it.
 */
export class UserRoleSessions {
  private readonly sessions = new Map<string, { session: Promise<RoleSession>; expiresAt?: number }>();
  private sts: Promise<{ client: STSClient; sdk: typeof import("@aws-sdk/client-sts") }> | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** The user's session: the one held while it has more than a few minutes left, else a new one. */
  async sessionFor(user: SignedInUser, settings: AwsSettings): Promise<RoleSession> {
    const role = settings.webIdentity;
    if (!role) throw new Error("sessionFor() needs AWS_WEB_IDENTITY_ROLE_ARN");
    const held = this.sessions.get(user.subject);
    if (held) {
      const session = await held.session.catch(() => undefined);
      if (session && session.credentials.expiration.getTime() - RENEW_BEFORE_MS > this.now()) return session;
      // Another call may have taken a new one meanwhile.
      const now = this.sessions.get(user.subject);
      if (now && now !== held) return this.sessionFor(user, settings);
    }
    this.sweep();
    const entry: { session: Promise<RoleSession>; expiresAt?: number } = {
      session: this.assume(user, role, settings),
    };
    this.sessions.set(user.subject, entry);
    entry.session.then(
      (session) => {
        entry.expiresAt = session.credentials.expiration.getTime();
      },
      () => {
        if (this.sessions.get(user.subject) === entry) this.sessions.delete(user.subject);
      },
    );
    return entry.session;
  }

  /** Drops a session AWS no longer accepts (revoked, expired early), so the next call takes a new one. */
  forget(user: SignedInUser, session: RoleSession): void {
    const held = this.sessions.get(user.subject);
    held?.session.then((current) => {
      if (current === session && this.sessions.get(user.subject) === held) this.sessions.delete(user.subject);
    }, ignore);
  }

  private sweep(): void {
    const now = this.now();
    for (const [subject, entry] of this.sessions) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) this.sessions.delete(subject);
    }
  }

  private async assume(
    user: SignedInUser,
    role: WebIdentityRole,
    settings: AwsSettings,
  ): Promise<RoleSession> {
    const { client, sdk } = await this.stsClient(settings);
    let answer: AssumeRoleWithWebIdentityCommandOutput;
    try {
      answer = await client.send(
        new sdk.AssumeRoleWithWebIdentityCommand({
          RoleArn: role.roleArn,
          RoleSessionName: user.sessionName,
          WebIdentityToken: user.token,
          ...(role.durationSeconds ? { DurationSeconds: role.durationSeconds } : {}),
        }),
      );
    } catch (error) {
      throw refusal(error, user, role) ?? error;
    }
    const { AccessKeyId, SecretAccessKey, SessionToken, Expiration } = answer.Credentials ?? {};
    if (!AccessKeyId || !SecretAccessKey || !Expiration) {
      throw new SwitchboardError(
        "aws.web-identity",
        "third-party",
        `AWS STS answered AssumeRoleWithWebIdentity for ${user.label} without credentials.`,
      );
    }
    const arn = answer.AssumedRoleUser?.Arn ?? `${role.roleArn} (session ${user.sessionName})`;
    getLogger().info(
      { roleSession: arn, expiration: Expiration.toISOString() },
      "took an AWS role session for a signed-in user",
    );
    return {
      credentials: {
        accessKeyId: AccessKeyId,
        secretAccessKey: SecretAccessKey,
        ...(SessionToken ? { sessionToken: SessionToken } : {}),
        expiration: Expiration,
      },
      arn,
    };
  }

  /** One STS client for the process, at the agent's region and STS endpoint; it signs nothing. */
  private stsClient(settings: AwsSettings) {
    if (!this.sts) {
      const attempt = (async () => {
        const sdk = await import("@aws-sdk/client-sts");
        const endpoint = settings.endpointFor("STS");
        const client = new sdk.STSClient({
          // STS answers in every region; the global endpoint's region when none is configured.
          region: settings.region ?? "us-east-1",
          ...(endpoint ? { endpoint } : {}),
          maxAttempts: 2,
          requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
        });
        return { client, sdk };
      })();
      attempt.catch(() => {
        if (this.sts === attempt) this.sts = undefined;
      });
      this.sts = attempt;
    }
    return this.sts;
  }
}

/** STS's refusal to give a user the role, in words that say what to set up; undefined for others. */
function refusal(error: unknown, user: SignedInUser, role: WebIdentityRole): SwitchboardError | undefined {
  const { name = "Error", message = String(error) } = (error ?? {}) as { name?: string; message?: string };
  const detail = maskSecrets(`${name}: ${message}`, [user.token], "***");
  if (name === "AccessDenied" || name === "AccessDeniedException") {
    return new SwitchboardError(
      "aws.web-identity",
      "user",
      `AWS refused to let ${user.label} take the role ${role.roleArn} (${detail}): the role's trust policy must allow sts:AssumeRoleWithWebIdentity for this identity provider's tokens (AWS_WEB_IDENTITY_ROLE_ARN names the role).`,
    );
  }
  if (TOKEN_REFUSALS.has(name)) {
    return new SwitchboardError(
      "aws.web-identity",
      "user",
      `AWS did not accept ${user.label}'s sign-in token for the role ${role.roleArn} (${detail}): the AWS account needs an IAM OIDC identity provider for this issuer and audience; an expired token needs a new sign-in.`,
    );
  }
  return undefined;
}

function ignore(): void {}
