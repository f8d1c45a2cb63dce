import type { AgentDefinition } from "@switchboard/agent-runtime";
import type { Logger } from "@switchboard/common";
import { PETSTORE_PROMPT } from "./prompt.js";
import { petstoreTools } from "./tools.js";

/** The agent, its tools read from openapi.json once at start (reading a description is asynchronous). */
export async function petstoreAgent(env: NodeJS.ProcessEnv, logger: Logger): Promise<AgentDefinition> {
  const tools = await petstoreTools(env, logger);
  return {
    name: "petstore",
    title: "Petstore",
    description:
      "The Swagger Petstore's pets, orders and users through its OpenAPI description; the worked example of an agent made with pnpm new-agent --openapi.",
    systemPrompt: PETSTORE_PROMPT,
    skills: [
      {
        id: "petstore_reads",
        name: "Petstore reads",
        description:
          "Read through the API: find_pets_by_status, find_pets_by_tags, get_pet_by_id, get_inventory, get_order_by_id, login_user, logout_user, get_user_by_name.",
        tags: ["petstore", "read"],
        examples: ["Finds Pets by status", "Finds Pets by tags"],
      },
      {
        id: "petstore_changes",
        name: "Petstore changes",
        description:
          "Change through the API (asks before changing anything): add_pet, update_pet, update_pet_with_form, delete_pet, place_order, delete_order, create_user, create_users_with_list_input.",
        tags: ["petstore", "change"],
        examples: ["Add a new pet to the store", "Update an existing pet"],
      },
    ],
    tools: () => tools,
  };
}
