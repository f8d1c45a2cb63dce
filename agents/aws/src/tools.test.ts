import { describe, expect, it } from "vitest";
import type { AwsConnection } from "./client.js";
import { awsTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no clients are needed.
const tools = awsTools({ region: "eu-west-1" } as AwsConnection);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("AWS tools name the region and the instance or cluster a call acts on", () => {
  it("names the instance a start or stop acts on, in the agent's region", () => {
    const one = { instance_ids: ["i-0123456789abcdef0"] };
    expect(resourceOf("stop_instance", one)).toEqual({
      region: "eu-west-1",
      instance: "i-0123456789abcdef0",
    });
    expect(resourceOf("start_instance", one)).toEqual({
      region: "eu-west-1",
      instance: "i-0123456789abcdef0",
    });
  });

  it("takes one instance per change, so a forbid on one cannot be passed by naming it beside another", () => {
    expect(
      resourceOf("stop_instance", { instance_ids: ["i-0123456789abcdef0", "i-0fedcba9876543210"] }),
    ).toBeUndefined();
  });

  it("names one listed instance, a described cluster, or just the region for listings", () => {
    expect(resourceOf("list_ec2_instances", { instance_ids: ["i-0123456789abcdef0"] })).toEqual({
      region: "eu-west-1",
      instance: "i-0123456789abcdef0",
    });
    expect(resourceOf("list_ec2_instances", { states: ["running"] })).toEqual({ region: "eu-west-1" });
    expect(resourceOf("list_eks_clusters", { name: "platform-prod" })).toEqual({
      region: "eu-west-1",
      cluster: "platform-prod",
    });
    expect(resourceOf("list_eks_clusters", {})).toEqual({ region: "eu-west-1" });
    expect(resourceOf("list_cloudwatch_alarms", {})).toEqual({ region: "eu-west-1" });
  });

  it("leaves the global listings (S3 buckets, Cost Explorer) to the tool as a whole", () => {
    expect(resourceOf("list_s3_buckets", {})).toBeUndefined();
    expect(resourceOf("cost_by_service", {})).toBeUndefined();
  });

  it("names no region when the environment names none (the SDK's chain picks it)", () => {
    const [list] = awsTools({} as AwsConnection);
    expect(list?.resource?.({})).toEqual({});
  });
});
