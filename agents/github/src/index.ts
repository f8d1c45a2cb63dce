import { runAgent } from "@switchboard/agent-runtime";
import { githubAgent } from "./agent.js";

await runAgent(githubAgent);
