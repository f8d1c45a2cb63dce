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
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { agentConformance } from "@switchboard-testing/agent-conformance";
import { freePort } from "@switchboard-testing/test-agents";
import { callTool } from "@switchboard-testing/test-llm";
import { startMoto, type TestMoto } from "@switchboard-testing/test-python";
import { describe, expect, it } from "vitest";

const region = "us-east-1";
const keys = { accessKeyId: "AKIATESTSWITCHBOARD1", secretAccessKey: "switchboard-test-secret-key" };

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
const recordedEc2Calls = async ({ moto, scratch }: SeededMoto, action: string) => {
  await fetch(`${moto.endpoint}/moto-api/recorder/download-recording`);
  const lines = readFileSync(join(scratch, "moto-recording.jsonl"), "utf8").split("\n").filter(Boolean);
  return lines
    .map((line) => JSON.parse(line) as { body?: string; body_encoded?: boolean })
    .map((entry) =>
      entry.body_encoded ? Buffer.from(entry.body ?? "", "base64").toString() : (entry.body ?? ""),
    )
    .map((body) => new URLSearchParams(body))
    .filter((params) => params.get("Action") === action)
    .map((params) => [...params].filter(([name]) => name.startsWith("InstanceId")).map(([, value]) => value));
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
