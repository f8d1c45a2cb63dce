import { runAgent } from "@switchboard/agent-runtime";
import { jiraAgent } from "./agent.js";

await runAgent(jiraAgent);
