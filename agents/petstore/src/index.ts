import { runAgent } from "@switchboard/agent-runtime";
import { petstoreAgent } from "./agent.js";

await runAgent(petstoreAgent);
