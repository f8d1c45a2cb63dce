import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { CostExplorerClient } from "@aws-sdk/client-cost-explorer";
import type { EC2Client } from "@aws-sdk/client-ec2";
import type { EKSClient } from "@aws-sdk/client-eks";
import type { S3Client } from "@aws-sdk/client-s3";
import { VendorClient, type VendorFailure } from "@switchboard/agent-runtime";
import { maskSecrets, SwitchboardError } from "@switchboard/common";
import { type AwsKeys, type AwsSettings, CREDENTIAL_HINT, readAwsSettings } from "./env.js";

/**
 * The AWS services the tools use, one vendor client each: a service's SDK package is loaded on its
 * first use (together they hold ~30 MB). `env` is the SDK's name in AWS_ENDPOINT_URL_<env>.
 */
export function awsConnection(env: NodeJS.ProcessEnv): AwsConnection {
  // AWS writes region names in lower case (us-east-1).
  const region = readAwsSettings(env).region?.toLowerCase();
  return {
    ...(region ? { region } : {}),
    ec2: awsService(env, {
      label: "EC2",
      env: "EC2",
      load: () => import("@aws-sdk/client-ec2"),
      create: (sdk, config) => new sdk.EC2Client(config),
    }),
    s3: awsService(env, {
      label: "S3",
      env: "S3",
      load: () => import("@aws-sdk/client-s3"),
      // Custom endpoints (moto, LocalStack, an IP) have no per-bucket DNS names.
      create: (sdk, config) => new sdk.S3Client({ ...config, forcePathStyle: Boolean(config.endpoint) }),
    }),
    cloudwatch: awsService(env, {
      label: "CloudWatch",
      env: "CLOUDWATCH",
      load: () => import("@aws-sdk/client-cloudwatch"),
      create: (sdk, config) => new sdk.CloudWatchClient(config),
    }),
    eks: awsService(env, {
      label: "EKS",
      env: "EKS",
      load: () => import("@aws-sdk/client-eks"),
      create: (sdk, config) => new sdk.EKSClient(config),
    }),
    costExplorer: awsService(env, {
      label: "Cost Explorer",
      env: "COST_EXPLORER",
      load: () => import("@aws-sdk/client-cost-explorer"),
      create: (sdk, config) => new sdk.CostExplorerClient(config),
    }),
  };
}

/** A service's vendor client: its SDK client, and its SDK package for the command classes. */
type AwsService<Sdk, Client> = VendorClient<{ client: Client; sdk: Sdk }, AwsSettings>;

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
  credentials?: AwsKeys;
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
 */
function awsService<Sdk, Client>(
  env: NodeJS.ProcessEnv,
  service: ServiceSpec<Sdk, Client>,
): AwsService<Sdk, Client> {
  return new VendorClient(
    {
      vendor: "AWS",
      code: "aws",
      settings: readAwsSettings,
      connect: async ({ region, profile, credentials, endpointFor }) => {
        const sdk = await service.load();
        const endpoint = endpointFor(service.env);
        const client = service.create(sdk, {
          ...(region ? { region } : {}),
          ...(profile ? { profile } : {}),
          ...(credentials ? { credentials } : {}),
          ...(endpoint ? { endpoint } : {}),
          maxAttempts: 2,
          requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
        });
        return { client, sdk };
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
