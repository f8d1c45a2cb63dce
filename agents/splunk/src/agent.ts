import type { AgentDefinition } from "@switchboard/agent-runtime";
import { splunkClient } from "./client.js";
import { SPLUNK_PROMPT } from "./prompt.js";
import { splunkTools } from "./tools.js";

export const splunkAgent: AgentDefinition = {
  name: "splunk",
  title: "Splunk Observability",
  description:
    "Splunk Observability Cloud: detectors and their incidents, alert muting, metrics and time series, dimensions, events and teams; enables and disables detectors, clears incidents and mutes alerts behind confirmation",
  systemPrompt: SPLUNK_PROMPT,
  skills: [
    {
      id: "splunk_alerting",
      name: "Splunk detectors, incidents and muting",
      description: "List detectors and their rules, active incidents and muting rules.",
      tags: ["splunk", "signalfx", "detectors", "incidents", "alerts", "muting"],
      examples: [
        "Which Splunk incidents are active?",
        "Show detector FkR3zLpAYAA",
        "What is muted right now?",
      ],
    },
    {
      id: "splunk_metadata",
      name: "Splunk metrics, time series, dimensions, events and teams",
      description: "Search metrics, metric time series, dimensions, recent events (deploys) and teams.",
      tags: ["splunk", "metrics", "time series", "dimensions", "events", "teams"],
      examples: ["Which hosts report http.server.duration.p99?", "Any deploys of checkout today?"],
    },
    {
      id: "splunk_changes",
      name: "Splunk changes",
      description: "Disable or enable detectors, clear incidents, mute and unmute alerts (asks first).",
      tags: ["splunk", "disable", "enable", "clear", "mute"],
      examples: ["Mute alerts for service etl for 60 minutes", "Clear incident FkVtK7bAYAA"],
    },
  ],
  tools: (env) => splunkTools(splunkClient(env)),
};
