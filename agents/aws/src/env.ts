import { firstSetting, parseEnv } from "@switchboard/common";
import { z } from "zod";

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

/** STS's bounds for a role session: 15 minutes to 12 hours (the role's own maximum may be lower). */
const MIN_SESSION_SECONDS = 900;
const MAX_SESSION_SECONDS = 43_200;

const text = z.string().trim().optional();

const AwsEnv = z
  .object({
    AWS_ACCESS_KEY_ID: text,
    AWS_SECRET_ACCESS_KEY: text,
    AWS_SESSION_TOKEN: text,
    AWS_REGION: text,
    AWS_PROFILE: text,
    AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: text.transform((value) => value?.toLowerCase() === "true"),
    AWS_WEB_IDENTITY_ROLE_ARN: z
      .string()
      .trim()
      .regex(/^arn:aws[\w-]*:iam::\d{12}:role\/.+$/, {
        error: (issue) =>
          `AWS_WEB_IDENTITY_ROLE_ARN must be an IAM role ARN like arn:aws:iam::123456789012:role/switchboard-users (got "${issue.input}").`,
      })
      .optional(),
    AWS_ROLE_SESSION_DURATION_SECONDS: text,
  })
  .transform(
    ({ AWS_WEB_IDENTITY_ROLE_ARN: roleArn, AWS_ROLE_SESSION_DURATION_SECONDS: duration, ...rest }, ctx) => {
      // The session's length counts only with a role to take.
      if (!roleArn) return { ...rest, webIdentity: undefined };
      if (duration === undefined) return { ...rest, webIdentity: { roleArn } };
      const seconds = Number(duration);
      if (!Number.isInteger(seconds) || seconds < MIN_SESSION_SECONDS || seconds > MAX_SESSION_SECONDS) {
        ctx.addIssue({
          code: "custom",
          path: ["AWS_ROLE_SESSION_DURATION_SECONDS"],
          message: `AWS_ROLE_SESSION_DURATION_SECONDS must be a whole number of seconds from ${MIN_SESSION_SECONDS} to ${MAX_SESSION_SECONDS} (got "${duration}").`,
        });
        return z.NEVER;
      }
      return { ...rest, webIdentity: { roleArn, durationSeconds: seconds } };
    },
  );

/** AWS_REGION, else AWS_DEFAULT_REGION (the SDK's names). */
export function regionOf(env: NodeJS.ProcessEnv): string | undefined {
  return firstSetting(env, "AWS_REGION", "AWS_DEFAULT_REGION");
}

export function readAwsSettings(env: NodeJS.ProcessEnv): AwsSettings {
  const e = parseEnv(AwsEnv, env, {
    code: "aws.config",
    what: "AWS settings",
    aliases: { AWS_REGION: ["AWS_REGION", "AWS_DEFAULT_REGION"] },
  });
  const {
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_SESSION_TOKEN: sessionToken,
  } = e;
  return {
    ...(e.webIdentity ? { webIdentity: e.webIdentity } : {}),
    ...(e.AWS_REGION ? { region: e.AWS_REGION } : {}),
    ...(e.AWS_PROFILE ? { profile: e.AWS_PROFILE } : {}),
    ...(accessKeyId && secretAccessKey
      ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } }
      : {}),
    // Per service, so read from the environment by name: AWS_ENDPOINT_URL_<SERVICE>, then AWS_ENDPOINT_URL.
    endpointFor: (service) =>
      e.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS
        ? undefined
        : firstSetting(env, `AWS_ENDPOINT_URL_${service}`, "AWS_ENDPOINT_URL"),
    secrets: [accessKeyId, secretAccessKey, sessionToken].filter((secret): secret is string =>
      Boolean(secret),
    ),
  };
}
