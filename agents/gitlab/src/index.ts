import { runAgent } from "@switchboard/agent-runtime";
import { gitlabAgent } from "./agent.js";

await runAgent(gitlabAgent);
