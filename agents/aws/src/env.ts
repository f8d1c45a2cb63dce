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

export interface AwsSettings {
  region?: string;
  profile?: string;
  /** Only when both keys are in the environment; otherwise the SDK's chain finds them. */
  credentials?: AwsKeys;
  /** AWS_ENDPOINT_URL_<SERVICE>, else AWS_ENDPOINT_URL (LocalStack, moto, a VPC endpoint). */
  endpointFor(serviceEnvName: string): string | undefined;
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

export function readAwsSettings(env: NodeJS.ProcessEnv): AwsSettings {
  const accessKeyId = value(env, "AWS_ACCESS_KEY_ID");
  const secretAccessKey = value(env, "AWS_SECRET_ACCESS_KEY");
  const sessionToken = value(env, "AWS_SESSION_TOKEN");
  const region = value(env, "AWS_REGION") ?? value(env, "AWS_DEFAULT_REGION");
  const profile = value(env, "AWS_PROFILE");
  const ignoreEndpoints = value(env, "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")?.toLowerCase() === "true";
  return {
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
