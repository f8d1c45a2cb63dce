import { runAgent } from "@switchboard/agent-runtime";
import { pagerdutyAgent } from "./agent.js";

await runAgent(pagerdutyAgent);
