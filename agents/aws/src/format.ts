import type { CompositeAlarm, MetricAlarm } from "@aws-sdk/client-cloudwatch";
import type { ResultByTime } from "@aws-sdk/client-cost-explorer";
import type { Instance, InstanceStateChange } from "@aws-sdk/client-ec2";
import type { Cluster } from "@aws-sdk/client-eks";
import type { Bucket } from "@aws-sdk/client-s3";

const MAX_REASON = 200;

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

/** Minutes are enough for a person; seconds and milliseconds are noise to the model. */
function when(date: Date | undefined): string {
  return date ? `${date.toISOString().slice(0, 16)}Z` : "?";
}

/** One line per instance: id, name tag, type, state, AZ, private IP, launch time. */
export function formatInstanceLine(instance: Instance): string {
  const name = instance.Tags?.find((tag) => tag.Key === "Name")?.Value;
  return [
    instance.InstanceId ?? "?",
    name ? `"${name}"` : "(no name)",
    instance.InstanceType ?? "?",
    instance.State?.Name ?? "?",
    instance.Placement?.AvailabilityZone ?? "?",
    instance.PrivateIpAddress ?? "no private IP",
    `launched ${when(instance.LaunchTime)}`,
  ].join(" ");
}

export function formatStateChange(change: InstanceStateChange): string {
  return `${change.InstanceId ?? "?"}: ${change.PreviousState?.Name ?? "?"} → ${change.CurrentState?.Name ?? "?"}`;
}

export function formatBucketLine(bucket: Bucket): string {
  const region = bucket.BucketRegion ? ` ${bucket.BucketRegion}` : "";
  return `${bucket.Name ?? "?"}${region} (created ${when(bucket.CreationDate).slice(0, 10)})`;
}

export function formatMetricAlarmLine(alarm: MetricAlarm): string {
  const metric = alarm.MetricName
    ? `${alarm.Namespace ?? ""}/${alarm.MetricName} ${alarm.ComparisonOperator ?? ""} ${alarm.Threshold ?? ""}`
    : "metric math";
  const reason = alarm.StateReason ? `: ${clip(alarm.StateReason, MAX_REASON)}` : "";
  return `${alarm.AlarmName ?? "?"} [${alarm.StateValue ?? "?"}] ${metric.trim()} (since ${when(alarm.StateUpdatedTimestamp)})${reason}`;
}

export function formatCompositeAlarmLine(alarm: CompositeAlarm): string {
  const reason = alarm.StateReason ? `: ${clip(alarm.StateReason, MAX_REASON)}` : "";
  return `${alarm.AlarmName ?? "?"} [${alarm.StateValue ?? "?"}] composite (since ${when(alarm.StateUpdatedTimestamp)})${reason}`;
}

export function formatClusterLine(cluster: Cluster): string {
  return [
    cluster.name ?? "?",
    `Kubernetes ${cluster.version ?? "?"}`,
    cluster.status ?? "?",
    cluster.endpoint ?? "no endpoint",
    `created ${when(cluster.createdAt).slice(0, 10)}`,
  ].join(" · ");
}

export interface ServiceCost {
  service: string;
  amount: number;
}

/** Sums each service's cost over every period returned, most expensive first. */
export function costsByService(
  results: ResultByTime[],
  metric: string,
): { costs: ServiceCost[]; unit: string } {
  const totals = new Map<string, number>();
  let unit = "USD";
  for (const period of results) {
    for (const group of period.Groups ?? []) {
      const value = group.Metrics?.[metric];
      const service = group.Keys?.[0] ?? "unknown";
      if (value?.Unit) unit = value.Unit;
      totals.set(service, (totals.get(service) ?? 0) + Number(value?.Amount ?? 0));
    }
  }
  const costs = [...totals]
    .map(([service, amount]) => ({ service, amount }))
    .sort((a, b) => b.amount - a.amount);
  return { costs, unit };
}

export function formatCosts(
  { costs, unit }: { costs: ServiceCost[]; unit: string },
  { start, end, top }: { start: string; end: string; top: number },
): string {
  if (costs.length === 0) return `No costs recorded from ${start} to ${end} (end exclusive).`;
  const money = (amount: number) => `${amount.toFixed(2)} ${unit}`;
  const total = costs.reduce((sum, cost) => sum + cost.amount, 0);
  const shown = costs.slice(0, top);
  const lines = [`Cost by service from ${start} to ${end} (end exclusive), unblended:`];
  shown.forEach((cost, index) => {
    lines.push(`${index + 1}. ${cost.service}: ${money(cost.amount)}`);
  });
  const rest = costs.slice(top);
  if (rest.length > 0) {
    const restTotal = rest.reduce((sum, cost) => sum + cost.amount, 0);
    lines.push(`… ${rest.length} more services: ${money(restTotal)}`);
  }
  lines.push(`Total: ${money(total)}`);
  return lines.join("\n");
}
