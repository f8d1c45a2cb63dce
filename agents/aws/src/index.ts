import { runAgent } from "@switchboard/agent-runtime";
import { awsAgent } from "./agent.js";

await runAgent(awsAgent);
