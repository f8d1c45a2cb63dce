import { maskSecrets, SwitchboardError } from "@switchboard/common";
import { type AwsKeys, CREDENTIAL_HINT, readAwsSettings } from "./env.js";

/** Each service's SDK package. */
interface Sdks {
  ec2: typeof import("@aws-sdk/client-ec2");
  s3: typeof import("@aws-sdk/client-s3");
  cloudwatch: typeof import("@aws-sdk/client-cloudwatch");
  eks: typeof import("@aws-sdk/client-eks");
  costExplorer: typeof import("@aws-sdk/client-cost-explorer");
}
type Service = keyof Sdks;
/** Each loaded on the service's first use: together they hold ~30 MB. */
const SDKS: { [S in Service]: () => Promise<Sdks[S]> } = {
  ec2: () => import("@aws-sdk/client-ec2"),
  s3: () => import("@aws-sdk/client-s3"),
  cloudwatch: () => import("@aws-sdk/client-cloudwatch"),
  eks: () => import("@aws-sdk/client-eks"),
  costExplorer: () => import("@aws-sdk/client-cost-explorer"),
};
interface Clients {
  ec2: Sdks["ec2"]["EC2Client"]["prototype"];
  s3: Sdks["s3"]["S3Client"]["prototype"];
  cloudwatch: Sdks["cloudwatch"]["CloudWatchClient"]["prototype"];
  eks: Sdks["eks"]["EKSClient"]["prototype"];
  costExplorer: Sdks["costExplorer"]["CostExplorerClient"]["prototype"];
}

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

const FACTORIES: { [S in Service]: (sdk: Sdks[S], config: ClientConfig) => Clients[S] } = {
  ec2: (sdk, config) => new sdk.EC2Client(config),
  // Custom endpoints (moto, LocalStack, an IP) have no per-bucket DNS names.
  s3: (sdk, config) => new sdk.S3Client({ ...config, forcePathStyle: Boolean(config.endpoint) }),
  cloudwatch: (sdk, config) => new sdk.CloudWatchClient(config),
  eks: (sdk, config) => new sdk.EKSClient(config),
  costExplorer: (sdk, config) => new sdk.CostExplorerClient(config),
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

  /** Runs `run` with the service's client and its SDK package (for the command classes). */
  async call<S extends Service, T>(
    service: S,
    run: (client: Clients[S], sdk: Sdks[S]) => Promise<T>,
  ): Promise<T> {
    try {
      const sdk = await SDKS[service]();
      return await run(this.client(service, sdk), sdk);
    } catch (error) {
      throw describeAwsError(error, this.secrets);
    }
  }

  private client<S extends Service>(service: S, sdk: Sdks[S]): Clients[S] {
    const existing = this.clients[service];
    if (existing) return existing;
    const { region, profile, credentials, endpointFor } = readAwsSettings(this.env);
    const endpoint = endpointFor(ENDPOINT_NAMES[service]);
    const created = FACTORIES[service](sdk, {
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
  return maskSecrets(message, secrets, "***").replace(/\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/g, "***");
}
