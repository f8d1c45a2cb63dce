import { SwitchboardError } from "@switchboard/common";

/**
 * What the AWS clients are built from, read from the agent's environment under the AWS SDK's own
 * names so existing env files keep working. Anything not set here (region or keys from a profile,
 * SSO, web identity, ECS or EC2 instance roles) is left to the SDK's standard provider chain.
 *
 * The agent does not turn off the EC2 instance metadata service: an agent on EC2 gets its role's
 * credentials from it. Elsewhere, set AWS_EC2_METADATA_DISABLED=true so a missing credential fails
 * at once instead of after a probe of 169.254.169.254 (the tests do).
 */
export interface AwsKeys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * The role a signed-in user's calls run under (issue "Who may do what" §2): the agent assumes it with
 * the user's own OIDC token (STS AssumeRoleWithWebIdentity), so IAM decides on that user's session.
 * Not the SDK's AWS_ROLE_ARN, which (with AWS_WEB_IDENTITY_TOKEN_FILE) is the agent's own identity.
 */
export interface WebIdentityRole {
  roleArn: string;
  /** AWS_ROLE_SESSION_DURATION_SECONDS; unset: STS's default (one hour). */
  durationSeconds?: number;
}

export interface AwsSettings {
  region?: string;
  profile?: string;
  /** Only when both keys are in the environment; otherwise the SDK's chain finds them. */
  credentials?: AwsKeys;
  /** AWS_ENDPOINT_URL_<SERVICE>, else AWS_ENDPOINT_URL (LocalStack, moto, a VPC endpoint). */
  endpointFor(serviceEnvName: string): string | undefined;
  /** Set: a signed-in user's calls run under this role, taken with their token; never the keys above. */
  webIdentity?: WebIdentityRole;
  /** Values that must never appear in a message: the keys themselves. */
  secrets: string[];
}

export const CREDENTIAL_HINT =
  "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys), " +
  "or AWS_PROFILE, and AWS_REGION";

function value(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const text = env[name]?.trim();
  return text ? text : undefined;
}

/** AWS_REGION, else AWS_DEFAULT_REGION (the SDK's names). */
export function regionOf(env: NodeJS.ProcessEnv): string | undefined {
  return value(env, "AWS_REGION") ?? value(env, "AWS_DEFAULT_REGION");
}

export function readAwsSettings(env: NodeJS.ProcessEnv): AwsSettings {
  const accessKeyId = value(env, "AWS_ACCESS_KEY_ID");
  const secretAccessKey = value(env, "AWS_SECRET_ACCESS_KEY");
  const sessionToken = value(env, "AWS_SESSION_TOKEN");
  const region = regionOf(env);
  const profile = value(env, "AWS_PROFILE");
  const ignoreEndpoints = value(env, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")?.toLowerCase() === "true";
  const webIdentity = readWebIdentityRole(env);
  return {
    ...(webIdentity ? { webIdentity } : {}),
    ...(region ? { region } : {}),
    ...(profile ? { profile } : {}),
    ...(accessKeyId && secretAccessKey
      ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } }
      : {}),
    endpointFor: (service) =>
      ignoreEndpoints
        ? undefined
        : (value(env, `AWS_ENDPOINT_URL_${service}`) ?? value(env, "AWS_ENDPOINT_URL")),
    secrets: [accessKeyId, secretAccessKey, sessionToken].filter((secret): secret is string =>
      Boolean(secret),
    ),
  };
}

/** STS's bounds for a role session: 15 minutes to 12 hours (the role's own maximum may be lower). */
const MIN_SESSION_SECONDS = 900;
const MAX_SESSION_SECONDS = 43_200;

function readWebIdentityRole(env: NodeJS.ProcessEnv): WebIdentityRole | undefined {
  const roleArn = value(env, "AWS_WEB_IDENTITY_ROLE_ARN");
  const duration = value(env, "AWS_ROLE_SESSION_DURATION_SECONDS");
  if (!roleArn) return undefined;
  if (!/^arn:aws[\w-]*:iam::\d{12}:role\/.+$/.test(roleArn)) {
    throw new SwitchboardError(
      "aws.config",
      "user",
      `AWS_WEB_IDENTITY_ROLE_ARN must be an IAM role ARN like arn:aws:iam::123456789012:role/switchboard-users (got "${roleArn}").`,
    );
  }
  if (duration === undefined) return { roleArn };
  const seconds = Number(duration);
  if (!Number.isInteger(seconds) || seconds < MIN_SESSION_SECONDS || seconds > MAX_SESSION_SECONDS) {
    throw new SwitchboardError(
      "aws.config",
      "user",
      `AWS_ROLE_SESSION_DURATION_SECONDS must be a whole number of seconds from ${MIN_SESSION_SECONDS} to ${MAX_SESSION_SECONDS} (got "${duration}").`,
    );
  }
  return { roleArn, durationSeconds: seconds };
}
