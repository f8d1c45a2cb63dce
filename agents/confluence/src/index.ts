import { runAgent } from "@switchboard/agent-runtime";
import { confluenceAgent } from "./agent.js";

await runAgent(confluenceAgent);
