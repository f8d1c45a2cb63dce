import { runAgent } from "@switchboard/agent-runtime/serve";
import { awsAgent } from "./agent.js";

await runAgent(awsAgent);
