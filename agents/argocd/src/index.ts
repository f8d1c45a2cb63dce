import { runAgent } from "@switchboard/agent-runtime";
import { argocdAgent } from "./agent.js";

await runAgent(argocdAgent);
