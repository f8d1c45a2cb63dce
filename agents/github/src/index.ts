import { runAgent } from "@switchboard/agent-runtime/serve";
import { githubAgent } from "./agent.js";

await runAgent(githubAgent);
