import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { CostExplorerClient } from "@aws-sdk/client-cost-explorer";
import { EC2Client } from "@aws-sdk/client-ec2";
import { EKSClient } from "@aws-sdk/client-eks";
import { S3Client } from "@aws-sdk/client-s3";
import { SwitchboardError } from "@switchboard/utils/errors";
import { type AwsKeys, CREDENTIAL_HINT, readAwsSettings } from "./env.js";

interface Clients {
  ec2: EC2Client;
  s3: S3Client;
  cloudwatch: CloudWatchClient;
  eks: EKSClient;
  costExplorer: CostExplorerClient;
}
type Service = keyof Clients;

interface ClientConfig {
  region?: string;
  profile?: string;
  credentials?: AwsKeys;
  endpoint?: string;
  maxAttempts: number;
  requestHandler: { connectionTimeout: number; requestTimeout: number };
}

/** The SDK's names for each service's endpoint variable (AWS_ENDPOINT_URL_<name>). */
const ENDPOINT_NAMES: Record<Service, string> = {
  ec2: "EC2",
  s3: "S3",
  cloudwatch: "CLOUDWATCH",
  eks: "EKS",
  costExplorer: "COST_EXPLORER",
};

const FACTORIES: { [S in Service]: (config: ClientConfig) => Clients[S] } = {
  ec2: (config) => new EC2Client(config),
  // Custom endpoints (moto, LocalStack, an IP) have no per-bucket DNS names.
  s3: (config) => new S3Client({ ...config, forcePathStyle: Boolean(config.endpoint) }),
  cloudwatch: (config) => new CloudWatchClient(config),
  eks: (config) => new EKSClient(config),
  costExplorer: (config) => new CostExplorerClient(config),
};

/**
 * The AWS clients, each created on first use so the agent starts (and says what is missing) without
 * credentials. A tool call is answered or fails within seconds: one retry, short socket timeouts.
 * Every failure becomes a message the model or the user can act on, with the keys scrubbed from it.
 */
export class AwsConnection {
  private readonly clients: Partial<Clients> = {};
  private readonly secrets: string[];

  constructor(private readonly env: NodeJS.ProcessEnv) {
    this.secrets = readAwsSettings(env).secrets;
  }

  async call<S extends Service, T>(service: S, run: (client: Clients[S]) => Promise<T>): Promise<T> {
    try {
      return await run(this.client(service));
    } catch (error) {
      throw describeAwsError(error, this.secrets);
    }
  }

  private client<S extends Service>(service: S): Clients[S] {
    const existing = this.clients[service];
    if (existing) return existing;
    const { region, profile, credentials, endpointFor } = readAwsSettings(this.env);
    const endpoint = endpointFor(ENDPOINT_NAMES[service]);
    const created = FACTORIES[service]({
      ...(region ? { region } : {}),
      ...(profile ? { profile } : {}),
      ...(credentials ? { credentials } : {}),
      ...(endpoint ? { endpoint } : {}),
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    });
    this.clients[service] = created;
    return created;
  }
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

function describeAwsError(error: unknown, secrets: string[]): Error {
  if (error instanceof SwitchboardError) return error;
  const { name = "Error", message = String(error) } = (error ?? {}) as { name?: string; message?: string };
  const reason = scrub(message, secrets);
  if (CREDENTIAL_ERRORS.has(name)) {
    return new SwitchboardError(
      "aws.credentials",
      "user",
      `AWS credentials are missing or were refused (${name}: ${reason}): ${CREDENTIAL_HINT}.`,
    );
  }
  if (/region is missing/i.test(message)) {
    return new SwitchboardError(
      "aws.region",
      "user",
      `No AWS region is configured: set AWS_REGION (e.g. us-east-1).`,
    );
  }
  const code =
    (error as { code?: string; cause?: { code?: string } })?.cause?.code ??
    (error as { code?: string })?.code;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "ETIMEDOUT" || name === "TimeoutError") {
    return new SwitchboardError(
      "aws.unreachable",
      "third-party",
      `Cannot reach AWS (${code ?? name}): check AWS_REGION, AWS_ENDPOINT_URL and the network. ${reason}`,
    );
  }
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return new Error(`AWS answered ${name}${status ? ` (HTTP ${status})` : ""}: ${reason}`);
}

/** Removes the configured keys, and anything shaped like an access key id, from a message. */
function scrub(message: string, secrets: string[]): string {
  let text = message;
  for (const secret of secrets) text = text.split(secret).join("***");
  return text.replace(/\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/g, "***");
}
