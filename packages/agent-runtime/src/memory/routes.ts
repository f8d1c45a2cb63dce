import { callerOf } from "../auth/bearer.js";
import type { AgentRoute } from "../extension.js";
import type { UserData } from "./user-data.js";

const MEMORY_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The caller's own memories and data on this agent: GET /memories, DELETE /memories/:id,
 * DELETE /memories, and DELETE /me ("forget me"). Served after the agent's own routes, so an agent
 * may serve these paths itself (the supervisor gathers its subagents').
 */
export function memoryRoutes(data: UserData): AgentRoute[] {
  const { agent } = data;
  return [
    {
      method: "get",
      path: "/memories",
      handler: async (req, res) => {
        res.json({ agent, memories: await data.listMemories(await callerOf(req)) });
      },
    },
    {
      method: "delete",
      path: "/memories/:id",
      handler: async (req, res) => {
        const id = String(req.params.id);
        if (!MEMORY_ID.test(id)) {
          return res
            .status(400)
            .json({ error: `Invalid memory id "${id.slice(0, 80)}": use an id from GET /memories.` });
        }
        if (!(await data.forgetMemory(await callerOf(req), id))) {
          return res.status(404).json({ error: `You have no memory ${id} on the ${agent} agent.` });
        }
        res.json({ agent, deleted: id });
      },
    },
    {
      method: "delete",
      path: "/memories",
      handler: async (req, res) => {
        res.json({ agent, deleted: await data.forgetMemories(await callerOf(req)) });
      },
    },
    {
      method: "delete",
      path: "/me",
      handler: async (req, res) => {
        res.json(await data.forgetUser(await callerOf(req)));
      },
    },
  ];
}
