import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { CloudWatchClient, DescribeAlarmsCommand, PutMetricAlarmCommand } from "@aws-sdk/client-cloudwatch";
import { CostExplorerClient, GetCostAndUsageCommand } from "@aws-sdk/client-cost-explorer";
import {
  DescribeImagesCommand,
  DescribeInstancesCommand,
  EC2Client,
  RunInstancesCommand,
  StopInstancesCommand,
} from "@aws-sdk/client-ec2";
import { CreateClusterCommand, EKSClient, ListClustersCommand } from "@aws-sdk/client-eks";
import { CreateBucketCommand, ListBucketsCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMoto, type TestMoto } from "./moto.js";

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));

describe("startMoto with the real AWS SDK v3 clients", () => {
  let moto: TestMoto;
  let config: {
    endpoint: string;
    region: string;
    credentials: { accessKeyId: string; secretAccessKey: string };
  };

  beforeAll(async () => {
    moto = await startMoto();
    config = {
      endpoint: moto.endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
    };
  });
  afterAll(() => moto?.stop());

  it("serves on a loopback endpoint", () => {
    expect(moto.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("EC2: runs an instance, lists it, and stops it", async () => {
    const ec2 = new EC2Client(config);
    const images = await ec2.send(new DescribeImagesCommand({ Owners: ["amazon"] }));
    const imageId = images.Images?.[0]?.ImageId;
    expect(imageId).toBeDefined();

    const run = await ec2.send(
      new RunInstancesCommand({
        ImageId: imageId,
        InstanceType: "t3.micro",
        MinCount: 1,
        MaxCount: 1,
        TagSpecifications: [{ ResourceType: "instance", Tags: [{ Key: "Name", Value: "switchboard-test" }] }],
      }),
    );
    const instanceId = run.Instances?.[0]?.InstanceId;
    expect(instanceId).toMatch(/^i-/);

    const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId as string] }));
    const instance = described.Reservations?.[0]?.Instances?.[0];
    expect(instance?.InstanceType).toBe("t3.micro");
    expect(instance?.State?.Name).toBe("running");
    expect(instance?.Tags).toContainEqual({ Key: "Name", Value: "switchboard-test" });

    const stopped = await ec2.send(new StopInstancesCommand({ InstanceIds: [instanceId as string] }));
    expect(stopped.StoppingInstances?.[0]?.CurrentState?.Name).toBe("stopping");
    const after = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId as string] }));
    expect(after.Reservations?.[0]?.Instances?.[0]?.State?.Name).toBe("stopped");
  });

  it("S3: creates a bucket and lists it", async () => {
    const s3 = new S3Client({ ...config, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: "switchboard-test-bucket" }));
    const listed = await s3.send(new ListBucketsCommand({}));
    expect(listed.Buckets?.map((bucket) => bucket.Name)).toContain("switchboard-test-bucket");
  });

  it("CloudWatch: an alarm that was put is described", async () => {
    const cloudwatch = new CloudWatchClient(config);
    await cloudwatch.send(
      new PutMetricAlarmCommand({
        AlarmName: "high-cpu",
        MetricName: "CPUUtilization",
        Namespace: "AWS/EC2",
        Statistic: "Average",
        Period: 300,
        EvaluationPeriods: 1,
        Threshold: 80,
        ComparisonOperator: "GreaterThanThreshold",
      }),
    );
    const alarms = await cloudwatch.send(new DescribeAlarmsCommand({}));
    const alarm = alarms.MetricAlarms?.find((a) => a.AlarmName === "high-cpu");
    expect(alarm?.Threshold).toBe(80);
    expect(alarm?.MetricName).toBe("CPUUtilization");
  });

  it("EKS: a created cluster is listed", async () => {
    const eks = new EKSClient(config);
    expect((await eks.send(new ListClustersCommand({}))).clusters).toEqual([]);
    await eks.send(
      new CreateClusterCommand({
        name: "prod-cluster",
        roleArn: "arn:aws:iam::123456789012:role/eks",
        resourcesVpcConfig: { subnetIds: ["subnet-1"] },
      }),
    );
    expect((await eks.send(new ListClustersCommand({}))).clusters).toEqual(["prod-cluster"]);
  });

  it("Cost Explorer: GetCostAndUsage returns the results queued through moto's API", async () => {
    const period = { Start: "2026-10-01", End: "2026-10-02" };
    const queued = await fetch(`${moto.endpoint}/moto-api/static/ce/cost-and-usage-results`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        results: [
          {
            ResultsByTime: [
              {
                TimePeriod: period,
                Total: { UnblendedCost: { Amount: "12.34", Unit: "USD" } },
                Groups: [],
                Estimated: false,
              },
            ],
          },
        ],
      }),
    });
    expect(queued.status).toBe(201);

    const ce = new CostExplorerClient(config);
    const usage = await ce.send(
      new GetCostAndUsageCommand({ TimePeriod: period, Granularity: "DAILY", Metrics: ["UnblendedCost"] }),
    );
    expect(usage.ResultsByTime?.[0]?.Total?.UnblendedCost).toEqual({ Amount: "12.34", Unit: "USD" });
  });
});

describe("startMoto lifecycle", () => {
  it("stop() shuts the server down", async () => {
    const moto = await startMoto();
    expect((await fetch(`${moto.endpoint}/moto-api/`)).ok).toBe(true);
    await moto.stop();
    await expect(fetch(`${moto.endpoint}/moto-api/`)).rejects.toThrow();
    expect(isRunning(moto.pid)).toBe(false);
  });

  it("moto exits when the test process that started it is killed", async () => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(packageRoot, "test/fixtures/moto-then-wait.ts")],
      {
        cwd: packageRoot,
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
    const { pid, endpoint } = JSON.parse(line) as { pid: number; endpoint: string };
    expect((await fetch(`${endpoint}/moto-api/`)).ok).toBe(true);

    child.kill("SIGKILL");
    await once(child, "exit");
    await waitFor(() => !isRunning(pid), 10_000);
    await expect(fetch(`${endpoint}/moto-api/`)).rejects.toThrow();
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
