import type { AgentDefinition } from "@switchboard/agent-runtime";
import { awsConnection } from "./client.js";
import { AWS_PROMPT } from "./prompt.js";
import { awsTools } from "./tools.js";

export const awsAgent: AgentDefinition = {
  name: "aws",
  title: "AWS",
  description:
    "Lists and starts or stops EC2 instances; lists S3 buckets, CloudWatch alarms, EKS clusters; reports costs.",
  systemPrompt: AWS_PROMPT,
  skills: [
    {
      id: "aws_resources",
      name: "AWS resources",
      description: "List EC2 instances, S3 buckets, CloudWatch alarms and EKS clusters with their state.",
      tags: ["aws", "ec2", "s3", "cloudwatch", "eks", "alarms", "inventory"],
      examples: [
        "Which EC2 instances are running?",
        "Which CloudWatch alarms are firing?",
        "List our EKS clusters",
      ],
    },
    {
      id: "aws_costs",
      name: "AWS costs",
      description:
        "Cost by service from Cost Explorer for a date range, most expensive first, with the total.",
      tags: ["aws", "cost", "billing", "cost explorer", "finops"],
      examples: ["What did AWS cost us in the last 30 days?", "Top 5 services by cost in March"],
    },
    {
      id: "aws_instance_changes",
      name: "EC2 start and stop",
      description: "Start or stop EC2 instances (asks before changing anything).",
      tags: ["aws", "ec2", "start", "stop"],
      examples: ["Stop i-0abc123def4567890", "Start the staging bastion"],
    },
  ],
  tools: (env) => awsTools(awsConnection(env)),
};
