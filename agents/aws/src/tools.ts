import type { ResultByTime } from "@aws-sdk/client-cost-explorer";
import type { Filter, Instance } from "@aws-sdk/client-ec2";
import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { AwsConnection } from "./client.js";
import {
  costsByService,
  formatBucketLine,
  formatClusterLine,
  formatCompositeAlarmLine,
  formatCosts,
  formatInstanceLine,
  formatMetricAlarmLine,
  formatStateChange,
} from "./format.js";

const INSTANCE_STATES = ["pending", "running", "stopping", "stopped", "shutting-down", "terminated"] as const;
const ALARM_STATES = ["OK", "ALARM", "INSUFFICIENT_DATA"] as const;
const CLUSTERS_DESCRIBED = 20;
const COST_PAGES = 5;
const DAY_MS = 86_400_000;

const instanceId = z.string().regex(/^i-[0-9a-f]{8,17}$/, "an instance id like i-0123456789abcdef0");
// One instance per change: the policy decides (and the audit records) each call on the one instance
// it names, so a forbid on one instance cannot be passed by naming it beside another. The model
// calls the tool once per instance; each is confirmed on its own.
const instanceIds = z
  .array(instanceId)
  .min(1)
  .max(1)
  .describe('One instance id, e.g. ["i-0123456789abcdef0"]');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD");

/**
 * What a call acts on, for the policy: the region the agent's clients use (AWS writes region names
 * in lower case) and what the call names. Instance ids and cluster names are kept as AWS writes
 * them (instance ids are lower case; EKS cluster names are case-sensitive).
 */
function inRegion(aws: AwsConnection, named: Record<string, string> = {}): Record<string, string> {
  return { ...(aws.region ? { region: aws.region } : {}), ...named };
}

export function awsTools(aws: AwsConnection): AgentTool[] {
  return [
    listEc2Instances(aws),
    stopInstance(aws),
    startInstance(aws),
    listS3Buckets(aws),
    listCloudwatchAlarms(aws),
    listEksClusters(aws),
    costByService(aws),
  ];
}

const listEc2Instances = (aws: AwsConnection) =>
  defineTool({
    name: "list_ec2_instances",
    description:
      "List EC2 instances in the configured region, one line each: id, Name tag, type, state, availability zone, private IP, launch time",
    schema: z.object({
      states: z.array(z.enum(INSTANCE_STATES)).optional().describe("Only instances in these states"),
      tags: z
        .array(z.object({ key: z.string().min(1), value: z.string() }))
        .optional()
        .describe("Only instances carrying every one of these tags, e.g. [{ key: 'env', value: 'prod' }]"),
      instance_ids: z.array(z.string()).optional(),
      max_results: z.number().int().min(1).max(200).default(50),
    }),
    // One named instance is scoped to it; a listing of several (or all) is scoped to the region.
    resource: ({ instance_ids }) =>
      inRegion(aws, instance_ids?.length === 1 && instance_ids[0] ? { instance: instance_ids[0] } : {}),
    run: async ({ states, tags, instance_ids, max_results }, ctx) => {
      const filters: Filter[] = [];
      if (states?.length) filters.push({ Name: "instance-state-name", Values: states });
      for (const { key, value } of tags ?? []) filters.push({ Name: `tag:${key}`, Values: [value] });
      const instances: Instance[] = [];
      let nextToken: string | undefined;
      do {
        const page = await aws.ec2.call(ctx, ({ client, sdk }) =>
          client.send(
            new sdk.DescribeInstancesCommand({
              ...(filters.length ? { Filters: filters } : {}),
              // The API refuses MaxResults together with InstanceIds.
              ...(instance_ids?.length ? { InstanceIds: instance_ids } : { MaxResults: 1000 }),
              ...(nextToken ? { NextToken: nextToken } : {}),
            }),
          ),
        );
        for (const reservation of page.Reservations ?? []) instances.push(...(reservation.Instances ?? []));
        nextToken = page.NextToken;
      } while (nextToken && instances.length < max_results);
      if (instances.length === 0) return "No EC2 instances match.";
      const more =
        instances.length > max_results
          ? `\n(${instances.length - max_results} more match; filter by state or tag to see them)`
          : "";
      return `${instances.slice(0, max_results).map(formatInstanceLine).join("\n")}${more}`;
    },
  });

const stopInstance = (aws: AwsConnection) =>
  defineTool({
    name: "stop_instance",
    description: "Stop running EC2 instances (their EBS volumes stay; they can be started again)",
    schema: z.object({ instance_ids: instanceIds }),
    confirm: ({ instance_ids }) => `Stop the EC2 instances ${instance_ids.join(", ")}.`,
    resource: ({ instance_ids }) => inRegion(aws, { instance: instance_ids.join(",") }),
    run: async ({ instance_ids }, ctx) => {
      const result = await aws.ec2.call(ctx, ({ client, sdk }) =>
        client.send(new sdk.StopInstancesCommand({ InstanceIds: instance_ids })),
      );
      return `Stopping:\n${(result.StoppingInstances ?? []).map(formatStateChange).join("\n")}`;
    },
  });

const startInstance = (aws: AwsConnection) =>
  defineTool({
    name: "start_instance",
    description: "Start stopped EC2 instances",
    schema: z.object({ instance_ids: instanceIds }),
    confirm: ({ instance_ids }) => `Start the EC2 instances ${instance_ids.join(", ")}.`,
    resource: ({ instance_ids }) => inRegion(aws, { instance: instance_ids.join(",") }),
    run: async ({ instance_ids }, ctx) => {
      const result = await aws.ec2.call(ctx, ({ client, sdk }) =>
        client.send(new sdk.StartInstancesCommand({ InstanceIds: instance_ids })),
      );
      return `Starting:\n${(result.StartingInstances ?? []).map(formatStateChange).join("\n")}`;
    },
  });

const listS3Buckets = (aws: AwsConnection) =>
  defineTool({
    name: "list_s3_buckets",
    description: "List the account's S3 buckets (name, region when known, creation date)",
    schema: z.object({
      prefix: z.string().optional().describe("Only buckets whose name starts with this"),
    }),
    // S3's bucket listing is global (every region's buckets): the tool as a whole.
    run: async ({ prefix }, ctx) => {
      const result = await aws.s3.call(ctx, ({ client, sdk }) => client.send(new sdk.ListBucketsCommand({})));
      const buckets = (result.Buckets ?? []).filter((bucket) => !prefix || bucket.Name?.startsWith(prefix));
      if (buckets.length === 0) return prefix ? `No S3 buckets start with "${prefix}".` : "No S3 buckets.";
      const shown = buckets.slice(0, 100);
      const more =
        buckets.length > shown.length ? `\n(${buckets.length - shown.length} more; give a prefix)` : "";
      return `${shown.map(formatBucketLine).join("\n")}${more}`;
    },
  });

const listCloudwatchAlarms = (aws: AwsConnection) =>
  defineTool({
    name: "list_cloudwatch_alarms",
    description: "List CloudWatch alarms with their state, metric, threshold and state reason",
    schema: z.object({
      state: z.enum(ALARM_STATES).optional().describe("Only alarms in this state; ALARM for those firing"),
      name_prefix: z.string().optional(),
    }),
    resource: () => inRegion(aws),
    run: async ({ state, name_prefix }, ctx) => {
      const result = await aws.cloudwatch.call(ctx, ({ client, sdk }) =>
        client.send(
          new sdk.DescribeAlarmsCommand({
            ...(state ? { StateValue: state } : {}),
            ...(name_prefix ? { AlarmNamePrefix: name_prefix } : {}),
            AlarmTypes: ["MetricAlarm", "CompositeAlarm"],
            MaxRecords: 100,
          }),
        ),
      );
      const lines = [
        ...(result.MetricAlarms ?? []).map(formatMetricAlarmLine),
        ...(result.CompositeAlarms ?? []).map(formatCompositeAlarmLine),
      ];
      if (lines.length === 0)
        return state ? `No CloudWatch alarms in state ${state}.` : "No CloudWatch alarms.";
      const more = result.NextToken ? "\n(more alarms exist; filter by state or name prefix)" : "";
      return `${lines.join("\n")}${more}`;
    },
  });

const listEksClusters = (aws: AwsConnection) =>
  defineTool({
    name: "list_eks_clusters",
    description:
      "List EKS clusters with their Kubernetes version, status and API endpoint; give a name to describe one",
    schema: z.object({ name: z.string().min(1).optional().describe("One cluster's name") }),
    resource: ({ name }) => inRegion(aws, name ? { cluster: name } : {}),
    run: async ({ name }, ctx) => {
      const names = name
        ? [name]
        : ((
            await aws.eks.call(ctx, ({ client, sdk }) =>
              client.send(new sdk.ListClustersCommand({ maxResults: 100 })),
            )
          ).clusters ?? []);
      if (names.length === 0) return "No EKS clusters in this region.";
      const described = await Promise.all(
        names
          .slice(0, CLUSTERS_DESCRIBED)
          .map((cluster) =>
            aws.eks.call(ctx, ({ client, sdk }) =>
              client.send(new sdk.DescribeClusterCommand({ name: cluster })),
            ),
          ),
      );
      const lines = described.map(({ cluster }) => formatClusterLine(cluster ?? {}));
      const rest = names.slice(CLUSTERS_DESCRIBED);
      if (rest.length > 0) lines.push(`Also: ${rest.join(", ")}`);
      return lines.join("\n");
    },
  });

const costByService = (aws: AwsConnection) =>
  defineTool({
    name: "cost_by_service",
    description:
      "AWS cost per service (Cost Explorer, unblended) for a date range, most expensive first, with the total. Default: the last 30 days",
    schema: z.object({
      start: isoDate.optional().describe("First day, YYYY-MM-DD (default: 30 days before end)"),
      end: isoDate.optional().describe("Day after the last day, YYYY-MM-DD (default: today)"),
      top: z.number().int().min(1).max(50).default(10),
    }),
    // Cost Explorer is global (the account's costs in every region): the tool as a whole.
    run: async ({ start, end, top }, ctx) => {
      const until = end ?? day(new Date());
      const from = start ?? day(new Date(Date.parse(until) - 30 * DAY_MS));
      if (from >= until)
        return `The start date ${from} must be before the end date ${until} (end is exclusive).`;
      const metric = "UnblendedCost";
      const results: ResultByTime[] = [];
      let nextPageToken: string | undefined;
      for (let page = 0; page < COST_PAGES; page += 1) {
        const answer = await aws.costExplorer.call(ctx, ({ client, sdk }) =>
          client.send(
            new sdk.GetCostAndUsageCommand({
              TimePeriod: { Start: from, End: until },
              Granularity: "MONTHLY",
              Metrics: [metric],
              GroupBy: [{ Type: "DIMENSION", Key: "SERVICE" }],
              ...(nextPageToken ? { NextPageToken: nextPageToken } : {}),
            }),
          ),
        );
        results.push(...(answer.ResultsByTime ?? []));
        nextPageToken = answer.NextPageToken;
        if (!nextPageToken) break;
      }
      return formatCosts(costsByService(results, metric), { start: from, end: until, top });
    },
  });

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}
