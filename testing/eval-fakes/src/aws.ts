import { CloudWatchClient, PutMetricAlarmCommand, SetAlarmStateCommand } from "@aws-sdk/client-cloudwatch";
import { EC2Client, RunInstancesCommand, StopInstancesCommand } from "@aws-sdk/client-ec2";
import { CreateClusterCommand, EKSClient } from "@aws-sdk/client-eks";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { startMoto, type TestMoto } from "@switchboard-testing/test-python";
import { z } from "zod";
import type { PlacedVendor } from "./placed.js";

/**
 * An evaluation case's AWS account, as the AWS agent's tools read it: instances by Name tag, buckets,
 * EKS clusters, CloudWatch alarms (firing or not) and last month's cost per service. Applied through
 * the AWS SDK to moto, after moto's own reset, so a case sees only its own account.
 */
const AwsSeed = z
  .object({
    instances: z
      .array(
        z
          .object({
            name: z.string().min(1),
            type: z.string().default("t3.micro"),
            state: z.enum(["running", "stopped"]).default("running"),
            zone: z.string().optional(),
            tags: z.record(z.string(), z.string()).default({}),
          })
          .strict(),
      )
      .default([]),
    buckets: z.array(z.string().min(3)).default([]),
    clusters: z
      .array(z.object({ name: z.string().min(1), version: z.string().default("1.30") }).strict())
      .default([]),
    alarms: z
      .array(
        z
          .object({
            name: z.string().min(1),
            namespace: z.string().default("AWS/EC2"),
            metric: z.string().default("CPUUtilization"),
            threshold: z.number(),
            comparison: z
              .enum([
                "GreaterThanThreshold",
                "GreaterThanOrEqualToThreshold",
                "LessThanThreshold",
                "LessThanOrEqualToThreshold",
              ])
              .default("GreaterThanThreshold"),
            state: z.enum(["OK", "ALARM", "INSUFFICIENT_DATA"]).default("OK"),
            reason: z.string().default("Set by the evaluation case's seed"),
          })
          .strict(),
      )
      .default([]),
    /** Unblended cost per service (Cost Explorer's service names), in USD, over the period asked. */
    costs: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
  })
  .strict();

export type AwsSeed = z.input<typeof AwsSeed>;

/**
 * The image every seeded instance runs: moto takes any id (it checks none unless told to), and
 * looking one up among the 1,300 it ships takes seconds.
 */
const IMAGE = "ami-0e7a1f5eed000e7a1";

/** Credentials moto accepts (any are); never a real account's. */
const KEYS = { accessKeyId: "AKIAEVALFAKES0000001", secretAccessKey: "eval-fakes-moto-secret" };

/** Reads a case's AWS seed, naming the field at fault. */
export function parseAwsSeed(seed: unknown): z.output<typeof AwsSeed> {
  const parsed = AwsSeed.safeParse(seed ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `${["aws", ...issue.path].join(".")}: ${issue.message}`,
  );
  throw new Error(
    `The aws seed is not one the fakes can apply (${problems.join("; ")}); it takes instances, buckets, clusters, alarms and costs.`,
  );
}

/**
 * AWS for the AWS agent: moto, on a port chosen now and started on the first case that reaches AWS
 * (so a set that never does needs no Python). Before each such case moto is reset (its accounts
 * emptied) and the case's seed applied with the AWS SDK.
 */
export function awsOnMoto(port: number, region = "us-east-1"): PlacedVendor {
  const endpoint = `http://127.0.0.1:${port}`;
  let moto: Promise<TestMoto> | undefined;
  const config = { endpoint, region, credentials: KEYS };
  return {
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: region,
      AWS_ACCESS_KEY_ID: KEYS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: KEYS.secretAccessKey,
      // Nothing of the developer's own AWS set-up is read: no instance metadata, config or credentials file.
      AWS_EC2_METADATA_DISABLED: "true",
      AWS_CONFIG_FILE: "/dev/null",
      AWS_SHARED_CREDENTIALS_FILE: "/dev/null",
    },
    warm() {
      moto ??= startMoto({ port });
      // A failure surfaces at the first case that reaches AWS, which awaits this start.
      moto.catch(() => undefined);
    },
    server: () => ({ endpoint }),
    async begin(seed) {
      const account = parseAwsSeed(seed);
      moto ??= startMoto({ port });
      await moto;
      await motoApi(endpoint, "/moto-api/reset");
      await applyAwsSeed(config, account);
    },
    // Nothing of the case's account is left for the next, should it reach AWS unasked.
    async end() {
      if (moto) await motoApi((await moto).endpoint, "/moto-api/reset");
    },
    async close() {
      await (await moto)?.stop();
    },
  };
}

async function motoApi(endpoint: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${endpoint}${path}`, {
    method: "POST",
    ...(body ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`moto refused ${path}: ${response.status} ${await response.text()}`);
}

type AwsConfig = { endpoint: string; region: string; credentials: typeof KEYS };

async function applyAwsSeed(config: AwsConfig, seed: z.output<typeof AwsSeed>): Promise<void> {
  if (seed.instances.length > 0) {
    const ec2 = new EC2Client(config);
    for (const instance of seed.instances) {
      const started = await ec2.send(
        new RunInstancesCommand({
          ImageId: IMAGE,
          InstanceType: instance.type as never,
          MinCount: 1,
          MaxCount: 1,
          ...(instance.zone ? { Placement: { AvailabilityZone: instance.zone } } : {}),
          TagSpecifications: [
            {
              ResourceType: "instance",
              Tags: Object.entries({ Name: instance.name, ...instance.tags }).map(([Key, Value]) => ({
                Key,
                Value,
              })),
            },
          ],
        }),
      );
      const id = started.Instances?.[0]?.InstanceId;
      if (instance.state === "stopped" && id) await ec2.send(new StopInstancesCommand({ InstanceIds: [id] }));
    }
  }
  if (seed.buckets.length > 0) {
    const s3 = new S3Client({ ...config, forcePathStyle: true });
    for (const bucket of seed.buckets) await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  }
  if (seed.clusters.length > 0) {
    const eks = new EKSClient(config);
    for (const cluster of seed.clusters)
      await eks.send(
        new CreateClusterCommand({
          name: cluster.name,
          version: cluster.version,
          roleArn: "arn:aws:iam::123456789012:role/eks",
          resourcesVpcConfig: { subnetIds: ["subnet-eval"] },
        }),
      );
  }
  if (seed.alarms.length > 0) {
    const cloudwatch = new CloudWatchClient(config);
    for (const alarm of seed.alarms) {
      await cloudwatch.send(
        new PutMetricAlarmCommand({
          AlarmName: alarm.name,
          Namespace: alarm.namespace,
          MetricName: alarm.metric,
          Statistic: "Average",
          Period: 300,
          EvaluationPeriods: 1,
          Threshold: alarm.threshold,
          ComparisonOperator: alarm.comparison,
        }),
      );
      if (alarm.state !== "INSUFFICIENT_DATA")
        await cloudwatch.send(
          new SetAlarmStateCommand({
            AlarmName: alarm.name,
            StateValue: alarm.state,
            StateReason: alarm.reason,
          }),
        );
    }
  }
  if (seed.costs) {
    // Cost Explorer in moto answers what is queued (one answer a period asked; the same request gets the same answer): the case's costs, for
    // whatever period the agent asks.
    const group = ([service, amount]: [string, number | string]) => ({
      Keys: [service],
      Metrics: { UnblendedCost: { Amount: String(amount), Unit: "USD" } },
    });
    const answer = {
      ResultsByTime: [
        {
          TimePeriod: { Start: "2026-10-01", End: "2026-11-01" },
          Total: {},
          Groups: Object.entries(seed.costs).map(group),
          Estimated: false,
        },
      ],
    };
    await motoApi(config.endpoint, "/moto-api/static/ce/cost-and-usage-results", {
      results: [answer, answer, answer, answer, answer],
    });
  }
}
