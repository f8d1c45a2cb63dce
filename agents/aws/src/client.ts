import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { CostExplorerClient } from "@aws-sdk/client-cost-explorer";
import type { EC2Client } from "@aws-sdk/client-ec2";
import type { EKSClient } from "@aws-sdk/client-eks";
import type { S3Client } from "@aws-sdk/client-s3";
import { type ToolCallContext, VendorClient, type VendorFailure } from "@switchboard/agent-runtime";
import { maskSecrets, SwitchboardError } from "@switchboard/common";
import { type AwsKeys, type AwsSettings, CREDENTIAL_HINT, readAwsSettings, regionOf } from "./env.js";
import { type RoleSession, type SignedInUser, signedInUser, UserRoleSessions } from "./user-role.js";

/**
 * The AWS services the tools use, one vendor client each: a service's SDK package is loaded on its
 * first use (together they hold ~30 MB). `env` is the SDK's name in AWS_ENDPOINT_URL_<env>.
 */
export function awsConnection(env: NodeJS.ProcessEnv): AwsConnection {
  // AWS writes region names in lower case (us-east-1).
  const region = regionOf(env)?.toLowerCase();
  // One role session per signed-in user, shared by the services.
  const users = new UserRoleSessions();
  return {
    ...(region ? { region } : {}),
    ec2: awsService(env, users, {
      label: "EC2",
      env: "EC2",
      load: () => import("@aws-sdk/client-ec2"),
      create: (sdk, config) => new sdk.EC2Client(config),
    }),
    s3: awsService(env, users, {
      label: "S3",
      env: "S3",
      load: () => import("@aws-sdk/client-s3"),
      // Custom endpoints (moto, LocalStack, an IP) have no per-bucket DNS names.
      create: (sdk, config) => new sdk.S3Client({ ...config, forcePathStyle: Boolean(config.endpoint) }),
    }),
    cloudwatch: awsService(env, users, {
      label: "CloudWatch",
      env: "CLOUDWATCH",
      load: () => import("@aws-sdk/client-cloudwatch"),
      create: (sdk, config) => new sdk.CloudWatchClient(config),
    }),
    eks: awsService(env, users, {
      label: "EKS",
      env: "EKS",
      load: () => import("@aws-sdk/client-eks"),
      create: (sdk, config) => new sdk.EKSClient(config),
    }),
    costExplorer: awsService(env, users, {
      label: "Cost Explorer",
      env: "COST_EXPLORER",
      load: () => import("@aws-sdk/client-cost-explorer"),
      create: (sdk, config) => new sdk.CostExplorerClient(config),
    }),
  };
}

/**
 * One AWS service: a call runs with its SDK client (and its SDK package, for the command classes).
 * With AWS_WEB_IDENTITY_ROLE_ARN set, a signed-in user's call runs on a client of their own role
 * session; every other call on the agent's credentials (the SDK's standard chain).
 */
export interface AwsService<Sdk, Client> {
  call<T>(
    ctx: Pick<ToolCallContext, "principal" | "token" | "credential">,
    run: (service: { client: Client; sdk: Sdk }, settings: AwsSettings) => Promise<T>,
  ): Promise<T>;
}

export interface AwsConnection {
  /** The region the clients use, when the environment names it (else the SDK's chain finds one). */
  region?: string;
  ec2: AwsService<typeof import("@aws-sdk/client-ec2"), EC2Client>;
  s3: AwsService<typeof import("@aws-sdk/client-s3"), S3Client>;
  cloudwatch: AwsService<typeof import("@aws-sdk/client-cloudwatch"), CloudWatchClient>;
  eks: AwsService<typeof import("@aws-sdk/client-eks"), EKSClient>;
  costExplorer: AwsService<typeof import("@aws-sdk/client-cost-explorer"), CostExplorerClient>;
}

interface ClientConfig {
  region?: string;
  profile?: string;
  credentials?: AwsKeys | RoleSession["credentials"];
  endpoint?: string;
  maxAttempts: number;
  requestHandler: { connectionTimeout: number; requestTimeout: number };
}

interface ServiceSpec<Sdk, Client> {
  /** As the message names it: "EC2". */
  label: string;
  /** The SDK's name for the service's endpoint variable (AWS_ENDPOINT_URL_<env>). */
  env: string;
  load: () => Promise<Sdk>;
  create: (sdk: Sdk, config: ClientConfig) => Client;
}

/**
 * One AWS service through its SDK v3 client (with the SDK package, for the command classes), built
 * from the standard AWS settings. A tool call is answered or fails within seconds: one retry, short
 * socket timeouts.
 *
 * With AWS_WEB_IDENTITY_ROLE_ARN set, a signed-in user's call runs on a client holding their own
 * role session's keys, never the agent's: IAM decides on that user. The agent's client is used only
 * for turns without a user token (AUTH_MODE=none). An SDK client memoizes the credentials it
 * resolved, so each user has clients of their own rather than a shared one with a switching provider.
 */
function awsService<Sdk, Client extends { destroy(): void }>(
  env: NodeJS.ProcessEnv,
  users: UserRoleSessions,
  service: ServiceSpec<Sdk, Client>,
): AwsService<Sdk, Client> {
  const build = (sdk: Sdk, settings: AwsSettings, credentials: ClientConfig["credentials"]) => {
    const { region, profile, endpointFor } = settings;
    const endpoint = endpointFor(service.env);
    return service.create(sdk, {
      ...(region ? { region } : {}),
      ...(profile && !credentials ? { profile } : {}),
      ...(credentials ? { credentials } : {}),
      ...(endpoint ? { endpoint } : {}),
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    });
  };
  const vendor = new VendorClient<{ client: Client; sdk: Sdk }, AwsSettings>(
    {
      vendor: "AWS",
      code: "aws",
      settings: readAwsSettings,
      connect: async (settings) => {
        const sdk = await service.load();
        return { client: build(sdk, settings, settings.credentials), sdk };
      },
      names: ({ region, endpointFor }) => ({
        url: endpointFor(service.env) ?? `the ${service.label} endpoint of ${region ?? "the SDK's region"}`,
        credentials: "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)",
        address: "AWS_REGION, AWS_ENDPOINT_URL",
        permissionHint: "an IAM policy must allow this action",
      }),
      secrets: ({ secrets }) => secrets,
      classify: awsFailure,
      describe: awsOwnWords,
    },
    env,
  );
  // Each signed-in user's client, on the session it was built with.
  const byUser = new Map<string, { session: RoleSession; client: Client }>();
  const clientFor = (user: SignedInUser, session: RoleSession, sdk: Sdk, settings: AwsSettings) => {
    const held = byUser.get(user.subject);
    if (held?.session === session) return held.client;
    held?.client.destroy();
    for (const [subject, other] of byUser) {
      if (other.session.credentials.expiration.getTime() <= Date.now()) {
        other.client.destroy();
        byUser.delete(subject);
      }
    }
    const client = build(sdk, settings, session.credentials);
    byUser.set(user.subject, { session, client });
    return client;
  };
  return {
    call: (ctx, run) =>
      vendor.call(ctx, async (own, settings) => {
        const user = settings.webIdentity ? signedInUser(ctx) : undefined;
        if (!user) return run(own, settings);
        const session = await users.sessionFor(user, settings);
        try {
          return await run({ client: clientFor(user, session, own.sdk, settings), sdk: own.sdk }, settings);
        } catch (error) {
          const refused = userRefusal(error, user, session, settings);
          if (refused?.code === "aws.role-session") users.forget(user, session);
          throw refused ?? error;
        }
      }),
  };
}

/** Error names AWS uses when the caller's identity lacks a permission (EC2 says UnauthorizedOperation). */
const PERMISSION_ERRORS = new Set([
  "AccessDenied",
  "AccessDeniedException",
  "UnauthorizedOperation",
  "AuthorizationError",
  "UnauthorizedException",
]);

/**
 * What AWS refused under a user's own role session, said as theirs: a missing permission is the
 * model's to tell the user (IAM decided on them, not on the agent); a session AWS no longer takes is
 * dropped and the turn ends. Undefined for any other failure (worded as for the agent's own calls).
 */
function userRefusal(
  error: unknown,
  user: SignedInUser,
  session: RoleSession,
  settings: AwsSettings,
): SwitchboardError | undefined {
  const { name = "Error", message = String(error) } = (error ?? {}) as { name?: string; message?: string };
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata
    ?.httpStatusCode;
  const detail = scrub(`${name}: ${message}`, [session.credentials.secretAccessKey]);
  const role = settings.webIdentity?.roleArn ?? "the role";
  if (CREDENTIAL_ERRORS.has(name)) {
    return new SwitchboardError(
      "aws.role-session",
      "user",
      `AWS no longer accepts ${user.label}'s role session ${session.arn} (${detail}): it may have been revoked; ask again to take a new one.`,
    );
  }
  if (PERMISSION_ERRORS.has(name) || status === 403) {
    return new SwitchboardError(
      "aws.forbidden",
      "third-party",
      `AWS refused this for ${user.label} (${status ? `HTTP ${status}: ` : ""}${detail}): IAM decided on ${user.label}'s own role session ${session.arn}, and the role ${role} does not allow it. Nothing was done; an AWS administrator can grant the permission to that role.`,
    );
  }
  return undefined;
}

/** Error names AWS and the SDK use when there are no usable credentials. */
const CREDENTIAL_ERRORS = new Set([
  "CredentialsProviderError",
  "UnrecognizedClientException",
  "InvalidClientTokenId",
  "AuthFailure",
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "InvalidSignatureException",
  "IncompleteSignature",
  "ExpiredToken",
  "ExpiredTokenException",
  "TokenRefreshRequired",
  "MissingAuthenticationToken",
  "InvalidToken",
]);

/** Error names of AWS's throttling (most come as HTTP 400, so the status alone does not tell). */
const THROTTLING_ERRORS = new Set([
  "Throttling",
  "ThrottlingException",
  "ThrottledException",
  "RequestLimitExceeded",
  "TooManyRequestsException",
  "RequestThrottled",
  "RequestThrottledException",
  "SlowDown",
]);

/**
 * The SDK's errors: AWS's error name (InvalidInstanceID.NotFound, AuthFailure, …) with its message,
 * the keys and anything shaped like an access key id scrubbed from it.
 */
function awsFailure(error: unknown, { secrets }: AwsSettings): Partial<VendorFailure> | undefined {
  const { name = "Error", message = String(error) } = (error ?? {}) as { name?: string; message?: string };
  const detail = scrub(`${name}: ${message}`, secrets);
  if (CREDENTIAL_ERRORS.has(name)) return { kind: "credentials", detail };
  if (THROTTLING_ERRORS.has(name)) return { kind: "rate-limited", detail };
  return { detail };
}

/**
 * Missing credentials are found by the SDK before anything is sent, and a missing region stops a
 * call before it starts: neither is a refusal by AWS, so both are said in AWS's terms.
 */
function awsOwnWords(failure: VendorFailure): SwitchboardError | undefined {
  if (failure.kind === "credentials") {
    return new SwitchboardError(
      "aws.credentials",
      "user",
      `AWS credentials are missing or were refused (${failure.detail}): ${CREDENTIAL_HINT}.`,
    );
  }
  if (failure.status === undefined && /region is missing/i.test(failure.detail ?? "")) {
    return new SwitchboardError(
      "aws.region",
      "user",
      "No AWS region is configured: set AWS_REGION (e.g. us-east-1).",
    );
  }
  return undefined;
}

/** Removes the configured keys, and anything shaped like an access key id, from a message. */
function scrub(message: string, secrets: string[]): string {
  return maskSecrets(message, secrets, "***").replace(/\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/g, "***");
}
