import { runAgent } from "@switchboard/agent-runtime/serve";
import { jiraAgent } from "./agent.js";

await runAgent(jiraAgent);
