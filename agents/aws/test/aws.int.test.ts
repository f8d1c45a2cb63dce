import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CloudWatchClient, PutMetricAlarmCommand, SetAlarmStateCommand } from "@aws-sdk/client-cloudwatch";
import {
  DescribeImagesCommand,
  DescribeInstancesCommand,
  EC2Client,
  RunInstancesCommand,
} from "@aws-sdk/client-ec2";
import { CreateClusterCommand, EKSClient } from "@aws-sdk/client-eks";
import {
  CreateOpenIDConnectProviderCommand,
  CreateRoleCommand,
  IAMClient,
  PutRolePolicyCommand,
} from "@aws-sdk/client-iam";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import { connectAgent } from "@switchboard/a2a-client";
import { AuthenticatedCaller, HopTokenIssuer } from "@switchboard/agent-runtime";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { freePort } from "@switchboard-testing/test-agents";
import { hopKeys, type IdentityProvider, signIn, startIdentityProvider } from "@switchboard-testing/test-idp";
import { callTool } from "@switchboard-testing/test-llm";
import { startMoto, type TestMoto } from "@switchboard-testing/test-python";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const region = "us-east-1";
const keys = { accessKeyId: "AKIATESTSWITCHBOARD1", secretAccessKey: "switchboard-test-secret-key" };
const hopKeyPair = hopKeys();

/** moto, seeded with instances, buckets, alarms and a cluster, and recording the requests it gets. */
interface SeededMoto {
  moto: TestMoto;
  ec2: EC2Client;
  /** Instance ids by Name tag: web-1 (prod), batch-1 (dev), bastion (staging). */
  instances: Record<string, string>;
  /** Holds moto's recording, and the agent's (absent) AWS config files. */
  scratch: string;
}

async function startSeededMoto(): Promise<SeededMoto> {
  const scratch = mkdtempSync(join(tmpdir(), "switchboard-aws-"));
  // moto's request recorder writes here; it inherits this process's environment.
  process.env.MOTO_RECORDER_FILEPATH = join(scratch, "moto-recording.jsonl");
  const moto = await startMoto();
  const instances: Record<string, string> = {};
  const config = { endpoint: moto.endpoint, region, credentials: keys };
  const ec2 = new EC2Client(config);
  const images = await ec2.send(new DescribeImagesCommand({ Owners: ["amazon"] }));
  const run = async (name: string, env: string) => {
    const result = await ec2.send(
      new RunInstancesCommand({
        ImageId: images.Images?.[0]?.ImageId,
        InstanceType: "t3.micro",
        MinCount: 1,
        MaxCount: 1,
        Placement: { AvailabilityZone: "us-east-1b" },
        TagSpecifications: [
          {
            ResourceType: "instance",
            Tags: [
              { Key: "Name", Value: name },
              { Key: "env", Value: env },
            ],
          },
        ],
      }),
    );
    instances[name] = result.Instances?.[0]?.InstanceId ?? "";
  };
  await run("web-1", "prod");
  await run("batch-1", "dev");
  await run("bastion", "staging");

  const s3 = new S3Client({ ...config, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: "switchboard-artifacts" }));
  await s3.send(new CreateBucketCommand({ Bucket: "switchboard-logs" }));

  const cloudwatch = new CloudWatchClient(config);
  for (const [name, threshold] of [
    ["web-1-high-cpu", 80],
    ["batch-low-disk", 10],
  ] as const) {
    await cloudwatch.send(
      new PutMetricAlarmCommand({
        AlarmName: name,
        Namespace: "AWS/EC2",
        MetricName: "CPUUtilization",
        Statistic: "Average",
        Period: 300,
        EvaluationPeriods: 1,
        Threshold: threshold,
        ComparisonOperator: "GreaterThanThreshold",
      }),
    );
  }
  await cloudwatch.send(
    new SetAlarmStateCommand({
      AlarmName: "web-1-high-cpu",
      StateValue: "ALARM",
      StateReason: "CPU above 80% for 5 minutes",
    }),
  );

  await new EKSClient(config).send(
    new CreateClusterCommand({
      name: "platform-prod",
      version: "1.30",
      roleArn: "arn:aws:iam::123456789012:role/eks",
      resourcesVpcConfig: { subnetIds: ["subnet-1"] },
    }),
  );
  await fetch(`${moto.endpoint}/moto-api/recorder/reset-recording`, { method: "POST" });
  await fetch(`${moto.endpoint}/moto-api/recorder/start-recording`, { method: "POST" });
  return { moto, ec2, instances, scratch };
}

const instanceState = async ({ ec2 }: SeededMoto, id: string) => {
  const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
  return described.Reservations?.[0]?.Instances?.[0]?.State?.Name;
};

/** The instance ids of each call of an EC2 action that moto received since recording started. */
const recordedEc2Calls = async (seeded: SeededMoto, action: string) =>
  (await recordedRequests(seeded, action)).map(({ params }) =>
    [...params].filter(([name]) => name.startsWith("InstanceId")).map(([, value]) => value),
  );

/** Every request of an action (EC2, STS: query APIs) moto received since recording started. */
const recordedRequests = async ({ moto, scratch }: SeededMoto, action: string) => {
  await fetch(`${moto.endpoint}/moto-api/recorder/download-recording`);
  const lines = readFileSync(join(scratch, "moto-recording.jsonl"), "utf8").split("\n").filter(Boolean);
  return lines
    .map(
      (line) =>
        JSON.parse(line) as { headers?: Record<string, string>; body?: string; body_encoded?: boolean },
    )
    .map((entry) => ({
      headers: Object.fromEntries(
        Object.entries(entry.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
      ),
      params: new URLSearchParams(
        entry.body_encoded ? Buffer.from(entry.body ?? "", "base64").toString() : (entry.body ?? ""),
      ),
    }))
    .filter(({ params }) => params.get("Action") === action);
};

const agent = agentConformance({
  name: "aws",
  packageDir: join(dirname(fileURLToPath(import.meta.url)), ".."),
  skills: ["aws_resources", "aws_costs", "aws_instance_changes"],
  service: {
    start: startSeededMoto,
    stop: async ({ moto, scratch }) => {
      await moto.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
    env: ({ moto, scratch }) => ({
      AWS_REGION: region,
      AWS_ENDPOINT_URL: moto.endpoint,
      AWS_ACCESS_KEY_ID: keys.accessKeyId,
      AWS_SECRET_ACCESS_KEY: keys.secretAccessKey,
      // Hermetic credential chain: no files from the machine, no probe of 169.254.169.254.
      AWS_EC2_METADATA_DISABLED: "true",
      AWS_CONFIG_FILE: join(scratch, "no-config"),
      AWS_SHARED_CREDENTIALS_FILE: join(scratch, "no-credentials"),
    }),
  },
  llmRules: [
    {
      lastUser: /which instances are running/,
      reply: callTool("list_ec2_instances", { states: ["running"] }),
    },
    {
      lastUser: /instances tagged (\w+)=(\w+)/,
      reply: (_r, { match }) =>
        callTool("list_ec2_instances", { tags: [{ key: match?.[1], value: match?.[2] }] }),
    },
    {
      lastUser: /show instance (i-[0-9a-f]+)/,
      reply: (_r, { match }) => callTool("list_ec2_instances", { instance_ids: [match?.[1]] }),
    },
    {
      lastUser: /stop (i-[0-9a-f]+)/,
      reply: (_r, { match }) => callTool("stop_instance", { instance_ids: [match?.[1]] }),
    },
    { lastUser: /alarms are firing/, reply: callTool("list_cloudwatch_alarms", { state: "ALARM" }) },
    { lastUser: /list buckets/, reply: callTool("list_s3_buckets", {}) },
    { lastUser: /eks clusters/, reply: callTool("list_eks_clusters", {}) },
    {
      lastUser: /cost from (\S+) to (\S+) top (\d+)/,
      reply: (_r, { match }) =>
        callTool("cost_by_service", { start: match?.[1], end: match?.[2], top: Number(match?.[3]) }),
    },
  ],
  fallback: "I can list and change AWS resources.",
  read: {
    prompt: "which instances are running?",
    answer: ({ instances }) => [
      new RegExp(
        `${instances["web-1"]} "web-1" t3\\.micro running us-east-1b \\d+\\.\\d+\\.\\d+\\.\\d+ launched \\d{4}-\\d{2}-\\d{2}T`,
      ),
      `${instances.bastion} "bastion"`,
    ],
  },
  change: {
    prompt: ({ instances }) => `stop ${instances["web-1"]}`,
    question: ({ instances }) => `Stop the EC2 instances ${instances["web-1"]}.`,
    applied: (moto) => recordedEc2Calls(moto, "StopInstances"),
    answer: ({ instances }) => `${instances["web-1"]}: running → stopping`,
    checkPending: async (moto) => {
      expect(await instanceState(moto, moto.instances["web-1"] ?? "")).toBe("running");
    },
    check: async (moto, _answer, stopped) => {
      const id = moto.instances["web-1"] ?? "";
      expect(stopped).toEqual([id]);
      expect(await instanceState(moto, id)).toBe("stopped");
    },
  },
  decline: {
    prompt: ({ instances }) => `stop ${instances["batch-1"]}`,
    question: ({ instances }) => `Stop the EC2 instances ${instances["batch-1"]}.`,
    check: async (moto) => {
      const id = moto.instances["batch-1"] ?? "";
      expect(await instanceState(moto, id)).toBe("running");
      expect((await recordedEc2Calls(moto, "StopInstances")).flat()).not.toContain(id);
    },
  },
  credentials: {
    variable: "AWS_ACCESS_KEY_ID",
    env: { AWS_ACCESS_KEY_ID: "", AWS_SECRET_ACCESS_KEY: keys.secretAccessKey },
    error: [
      "AWS credentials are missing or were refused (CredentialsProviderError",
      "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY",
      "AWS_PROFILE",
      "AWS_REGION",
    ],
    secrets: () => [keys.secretAccessKey],
  },
  streaming: { prompt: "list eks clusters", tool: "list_eks_clusters", answer: "platform-prod" },
  // Not the read turn: web-1 is stopped by then.
  pythonPeer: { prompt: "list eks clusters", answer: /platform-prod · Kubernetes 1\.30/ },
});

describe("AWS agent: tools' formatting and AWS's errors, against moto", () => {
  it("filters instances by tag, and lists buckets, firing alarms and EKS clusters from moto", async () => {
    const connection = await agent.connect();
    const contextId = agent.contextId();
    const tagged = await connection.send({ text: "instances tagged env=dev", contextId });
    expect(tagged.text).toContain(`${agent.service.instances["batch-1"]} "batch-1"`);
    expect(tagged.text).not.toContain("web-1");

    const buckets = await connection.send({ text: "list buckets", contextId });
    expect(buckets.text).toMatch(/switchboard-artifacts.*\(created \d{4}-\d{2}-\d{2}\)/);
    expect(buckets.text).toContain("switchboard-logs");

    const alarms = await connection.send({ text: "which alarms are firing?", contextId });
    expect(alarms.text).toContain("web-1-high-cpu [ALARM] AWS/EC2/CPUUtilization GreaterThanThreshold 80");
    expect(alarms.text).toContain("CPU above 80% for 5 minutes");
    expect(alarms.text).not.toContain("batch-low-disk");

    const clusters = await connection.send({ text: "list eks clusters", contextId });
    expect(clusters.text).toMatch(/platform-prod · Kubernetes 1\.30 · ACTIVE · https:\/\/\S+/);
  });

  it("reports cost by service, most expensive first, with the total (results queued in moto)", async () => {
    const group = (service: string, amount: string) => ({
      Keys: [service],
      Metrics: { UnblendedCost: { Amount: amount, Unit: "USD" } },
    });
    const queued = await fetch(`${agent.service.moto.endpoint}/moto-api/static/ce/cost-and-usage-results`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        results: [
          {
            ResultsByTime: [
              {
                TimePeriod: { Start: "2026-01-01", End: "2026-02-01" },
                Total: {},
                Groups: [
                  group("Amazon Elastic Compute Cloud - Compute", "100.50"),
                  group("Amazon Simple Storage Service", "20"),
                ],
                Estimated: false,
              },
              {
                TimePeriod: { Start: "2026-02-01", End: "2026-03-01" },
                Total: {},
                Groups: [
                  group("Amazon Elastic Compute Cloud - Compute", "50.25"),
                  group("Amazon Elastic Kubernetes Service", "73"),
                  group("AmazonCloudWatch", "4.10"),
                ],
                Estimated: true,
              },
            ],
          },
        ],
      }),
    });
    expect(queued.status).toBe(201);

    const result = await agent.ask("cost from 2026-01-01 to 2026-03-01 top 2");
    expect(result.state).toBe("completed");
    expect(result.text).toContain(
      [
        "Cost by service from 2026-01-01 to 2026-03-01 (end exclusive), unblended:",
        "1. Amazon Elastic Compute Cloud - Compute: 150.75 USD",
        "2. Amazon Elastic Kubernetes Service: 73.00 USD",
        "… 2 more services: 24.10 USD",
        "Total: 247.85 USD",
      ].join("\n"),
    );
  });

  it("gives an AWS error to the model as a readable message", async () => {
    const result = await agent.ask("show instance i-0000000000000dead");
    expect(result.state).toBe("completed");
    expect(result.text).toMatch(
      /list_ec2_instances failed: AWS answered HTTP 400: InvalidInstanceID\.NotFound: .*i-0000000000000dead/,
    );
  });

  it("fails the task naming the credential variables when AWS refuses the keys, without leaking them", async () => {
    // moto checks signatures against its own IAM users only when it starts with this set.
    process.env.INITIAL_NO_AUTH_ACTION_COUNT = "0";
    const strict = await startMoto().finally(() => {
      delete process.env.INITIAL_NO_AUTH_ACTION_COUNT;
    });
    try {
      const result = await agent.ask("which instances are running?", { AWS_ENDPOINT_URL: strict.endpoint });
      expect(result.state).toBe("failed");
      expect(result.text).toMatch(
        /AWS credentials are missing or were refused \((AuthFailure|InvalidClientTokenId)/,
      );
      expect(result.text).toContain("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
      expect(result.text).not.toContain(keys.accessKeyId);
      expect(result.text).not.toContain(keys.secretAccessKey);
    } finally {
      await strict.stop();
    }
  });

  it("fails the task naming AWS_REGION when no region is configured", async () => {
    const result = await agent.ask("list buckets", { AWS_REGION: undefined });
    expect(result.state).toBe("failed");
    expect(result.text).toContain("No AWS region is configured: set AWS_REGION");
  });

  it("tells the model AWS is unreachable when the endpoint refuses connections", async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const result = await agent.ask("list buckets", { AWS_ENDPOINT_URL: endpoint });
    expect(result.state).toBe("completed");
    expect(result.text).toContain(
      `list_s3_buckets failed: Cannot reach AWS at ${endpoint} (ECONNREFUSED): check AWS_REGION, AWS_ENDPOINT_URL`,
    );
    expect(result.text).not.toContain(keys.accessKeyId);
  });
});

describe("AWS under the signed-in user's own identity (AWS_WEB_IDENTITY_ROLE_ARN), on moto's IAM", () => {
  const account = "123456789012";
  const operators = `arn:aws:iam::${account}:role/switchboard-operators`;
  const readers = `arn:aws:iam::${account}:role/switchboard-readers`;
  let idp: IdentityProvider;
  const tokens: Record<string, string> = {};

  /** moto checks signatures and IAM policies after `free` more unchecked requests (inf: never). */
  const enforceIam = async (free: number | "inf") => {
    const answer = await fetch(`${agent.service.moto.endpoint}/moto-api/reset-auth`, {
      method: "POST",
      body: String(free),
    });
    expect(answer.status).toBe(200);
  };
  /** The agent signed in users' calls go through: no keys of its own at all, the user's role set. */
  const userAgent = (roleArn: string) =>
    agent.start({
      AUTH_MODE: "jwt",
      AUTH_SUPERVISOR_PUBLIC_KEY: hopKeyPair.AUTH_SUPERVISOR_PUBLIC_KEY,
      AUTH_JWKS_URL: idp.jwksUrl,
      AUTH_ISSUER: idp.issuer,
      AUTH_AUDIENCE: idp.audience,
      AWS_WEB_IDENTITY_ROLE_ARN: roleArn,
      AWS_ROLE_SESSION_DURATION_SECONDS: "900",
      AWS_ACCESS_KEY_ID: undefined,
      AWS_SECRET_ACCESS_KEY: undefined,
    });
  /** Who moto says signed a recorded request: GetCallerIdentity on its access key and session token. */
  const signer = async (headers: Record<string, string>) => {
    const accessKeyId = /Credential=([^/]+)\//.exec(headers.authorization ?? "")?.[1] ?? "";
    const sessionToken = headers["x-amz-security-token"];
    const sts = new STSClient({
      endpoint: agent.service.moto.endpoint,
      region,
      credentials: { accessKeyId, secretAccessKey: "moto-checks-no-signature-with-iam-off", sessionToken },
    });
    return (await sts.send(new GetCallerIdentityCommand({}))).Arn;
  };

  beforeAll(async () => {
    idp = await startIdentityProvider({
      users: {
        alice: { groups: ["ops"], email: "alice@example.com" },
        bob: { groups: ["readers"], email: "bob@example.com" },
      },
    });
    for (const user of ["alice", "bob"]) tokens[user] = await signIn(idp, user);
    // The account trusts the IdP's tokens; each role's policy is what IAM decides on.
    const iam = new IAMClient({ endpoint: agent.service.moto.endpoint, region, credentials: keys });
    const issuerHost = new URL(idp.issuer).host;
    await iam.send(
      new CreateOpenIDConnectProviderCommand({
        Url: idp.issuer,
        ClientIDList: [idp.audience],
        ThumbprintList: ["0".repeat(40)],
      }),
    );
    const trust = JSON.stringify({
      Version: "2012-10-17",
      Statement: [
        {
          Effect: "Allow",
          Principal: { Federated: `arn:aws:iam::${account}:oidc-provider/${issuerHost}` },
          Action: "sts:AssumeRoleWithWebIdentity",
          Condition: { StringEquals: { [`${issuerHost}:aud`]: idp.audience } },
        },
      ],
    });
    const role = async (name: string, actions: string[]) => {
      await iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: trust }));
      await iam.send(
        new PutRolePolicyCommand({
          RoleName: name,
          PolicyName: "ec2",
          PolicyDocument: JSON.stringify({
            Version: "2012-10-17",
            Statement: [{ Effect: "Allow", Action: actions, Resource: "*" }],
          }),
        }),
      );
    };
    await role("switchboard-operators", ["ec2:DescribeInstances", "ec2:StopInstances", "ec2:StartInstances"]);
    await role("switchboard-readers", ["ec2:DescribeInstances"]);
  });
  afterAll(async () => {
    await enforceIam("inf");
    await idp?.close();
  });

  it("through the supervisor without the user's own token, says which setting hands it over; never acts with other credentials", async () => {
    const id = agent.service.instances.bastion ?? "";
    const started = await userAgent(operators);
    const issuer = HopTokenIssuer.fromPem(hopKeyPair.AUTH_HOP_SIGNING_KEY, "supervisor");
    const hop = await issuer.sign(
      new AuthenticatedCaller("alice", tokens.alice as string, { sub: "alice" }),
      "aws",
    );
    const assumedBefore = (await recordedRequests(agent.service, "AssumeRoleWithWebIdentity")).length;
    const connection = await connectAgent(started.url, { token: hop });
    const answer = await connection.send({ text: `show instance ${id}`, contextId: agent.contextId() });
    expect(answer.text).toContain("AUTH_FORWARD_USER_TOKEN_TO");
    expect((await recordedRequests(agent.service, "AssumeRoleWithWebIdentity")).length).toBe(assumedBefore);
  });

  it("stops an instance under the user's own role session, taken once with their token and kept", async () => {
    const id = agent.service.instances.bastion ?? "";
    const started = await userAgent(operators);
    const connection = await connectAgent(started.url, { token: tokens.alice });
    const contextId = agent.contextId();
    const asked = await connection.send({ text: `stop ${id}`, contextId });
    expect(asked.state).toBe("input-required");
    const assumedBefore = (await recordedRequests(agent.service, "AssumeRoleWithWebIdentity")).length;
    // From here moto checks every signature and IAM policy, but for one request: STS's
    // AssumeRoleWithWebIdentity, which is unsigned (moto 5.2.5 would check it like a signed one).
    await enforceIam(1);
    try {
      const approved = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
      expect(approved.state).toBe("completed");
      expect(approved.text).toContain(`${id}: running → stopping`);
      // A second turn reuses the session: no second AssumeRoleWithWebIdentity, and IAM lets the read through.
      const listed = await connection.send({ text: `show instance ${id}`, contextId: agent.contextId() });
      expect(listed.text).toContain(`${id} "bastion"`);
    } finally {
      await enforceIam("inf");
    }
    expect(await instanceState(agent.service, id)).toBe("stopped");

    const assumed = (await recordedRequests(agent.service, "AssumeRoleWithWebIdentity")).slice(assumedBefore);
    expect(assumed).toHaveLength(1);
    expect(assumed[0]?.params.get("RoleArn")).toBe(operators);
    expect(assumed[0]?.params.get("RoleSessionName")).toBe("alice@example.com");
    expect(assumed[0]?.params.get("WebIdentityToken")).toBe(tokens.alice);
    expect(assumed[0]?.params.get("DurationSeconds")).toBe("900");
    expect(assumed[0]?.headers.authorization).toBeUndefined(); // unsigned: no agent keys in it
    const stop = (await recordedRequests(agent.service, "StopInstances")).find(({ params }) =>
      [...params.values()].includes(id),
    );
    expect(await signer(stop?.headers ?? {})).toBe(
      `arn:aws:sts::${account}:assumed-role/switchboard-operators/alice@example.com`,
    );
  });

  it("gives IAM's refusal, worded as the user's, when their role lacks the permission; nothing stops", async () => {
    const id = agent.service.instances["batch-1"] ?? "";
    const started = await userAgent(readers);
    const connection = await connectAgent(started.url, { token: tokens.bob });
    const contextId = agent.contextId();
    const asked = await connection.send({ text: `stop ${id}`, contextId });
    expect(asked.state).toBe("input-required");
    await enforceIam(1);
    let refused: Awaited<ReturnType<typeof connection.send>>;
    try {
      refused = await connection.send({ text: "yes", contextId, taskId: asked.taskId });
    } finally {
      await enforceIam("inf");
    }
    expect(refused.state).toBe("completed"); // the model reads the refusal and tells the user
    expect(refused.text).toContain("stop_instance failed: AWS refused this for bob@example.com (HTTP 403: ");
    expect(refused.text).toContain(
      `is not authorized to perform: ec2:StopInstances): IAM decided on bob@example.com's own role session arn:aws:sts::${account}:assumed-role/switchboard-readers/bob@example.com, and the role ${readers} does not allow it.`,
    );
    expect(refused.text).not.toContain(tokens.bob ?? "no token");
    expect(await instanceState(agent.service, id)).toBe("running");
  });

  it("uses the agent's own credentials for a turn without a user token (AUTH_MODE=none), role set or not", async () => {
    const id = agent.service.instances["batch-1"] ?? "";
    const assumedBefore = (await recordedRequests(agent.service, "AssumeRoleWithWebIdentity")).length;
    const result = await agent.ask(`show instance ${id}`, { AWS_WEB_IDENTITY_ROLE_ARN: operators });
    expect(result.text).toContain(`${id} "batch-1"`);
    expect(await recordedRequests(agent.service, "AssumeRoleWithWebIdentity")).toHaveLength(assumedBefore);
    const described = (await recordedRequests(agent.service, "DescribeInstances")).at(-1);
    expect(described?.headers.authorization).toContain(`Credential=${keys.accessKeyId}/`);
  });

  it("fails the turn naming the setting when AWS_WEB_IDENTITY_ROLE_ARN is not a role ARN", async () => {
    const result = await agent.ask("list buckets", { AWS_WEB_IDENTITY_ROLE_ARN: "switchboard-users" });
    expect(result.state).toBe("failed");
    expect(result.text).toContain("AWS_WEB_IDENTITY_ROLE_ARN must be an IAM role ARN");
  });
});
