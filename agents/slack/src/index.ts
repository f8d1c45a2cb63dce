import { runAgent } from "@switchboard/agent-runtime";
import { slackAgent } from "./agent.js";

await runAgent(slackAgent);
