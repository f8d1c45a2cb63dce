import { type AgentTool, defineTool } from "@switchboard/agent-runtime";
import type { PetstoreClient } from "./client.js";
import { argumentsOf, confirmationOf } from "./openapi.js";
import { OPERATIONS } from "./operations.js";

/**
 * One tool per operation of Swagger Petstore - OpenAPI 3.0's description (generated): GET operations read, the
 * others change something and ask the user first; each names the resources of its path parameters.
 * Edit descriptions, confirmations and resources freely.
 */
export function petstoreTools(client: PetstoreClient): AgentTool[] {
  return [
    defineTool({
      name: "add_pet",
      description: "Add a new pet to the store. (POST /pet)",
      schema: argumentsOf(OPERATIONS.addPet),
      confirm: (args) => confirmationOf(OPERATIONS.addPet, args),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.addPet, args)),
    }),
    defineTool({
      name: "update_pet",
      description: "Update an existing pet. Update an existing pet by Id. (PUT /pet)",
      schema: argumentsOf(OPERATIONS.updatePet),
      confirm: (args) => confirmationOf(OPERATIONS.updatePet, args),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.updatePet, args)),
    }),
    defineTool({
      name: "find_pets_by_status",
      description:
        "Finds Pets by status. Multiple status values can be provided with comma separated strings. (GET /pet/findByStatus)",
      schema: argumentsOf(OPERATIONS.findPetsByStatus),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.findPetsByStatus, args)),
    }),
    defineTool({
      name: "find_pets_by_tags",
      description:
        "Finds Pets by tags. Multiple tags can be provided with comma separated strings. Use tag1, tag2, tag3 for testing. (GET /pet/findByTags)",
      schema: argumentsOf(OPERATIONS.findPetsByTags),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.findPetsByTags, args)),
    }),
    defineTool({
      name: "get_pet_by_id",
      description: "Find pet by ID. Returns a single pet. (GET /pet/{petId})",
      schema: argumentsOf(OPERATIONS.getPetById),
      resource: (args) => ({ pet: String(args.petId) }),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.getPetById, args)),
    }),
    defineTool({
      name: "update_pet_with_form",
      description:
        "Updates a pet in the store with form data. Updates a pet resource based on the form data. (POST /pet/{petId})",
      schema: argumentsOf(OPERATIONS.updatePetWithForm),
      confirm: (args) => confirmationOf(OPERATIONS.updatePetWithForm, args),
      resource: (args) => ({ pet: String(args.petId) }),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.updatePetWithForm, args)),
    }),
    defineTool({
      name: "delete_pet",
      description: "Deletes a pet. Delete a pet. (DELETE /pet/{petId})",
      schema: argumentsOf(OPERATIONS.deletePet),
      confirm: (args) => confirmationOf(OPERATIONS.deletePet, args),
      resource: (args) => ({ pet: String(args.petId) }),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.deletePet, args)),
    }),
    defineTool({
      name: "get_inventory",
      description:
        "Returns pet inventories by status. Returns a map of status codes to quantities. (GET /store/inventory)",
      schema: argumentsOf(OPERATIONS.getInventory),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.getInventory, args)),
    }),
    defineTool({
      name: "place_order",
      description: "Place an order for a pet. Place a new order in the store. (POST /store/order)",
      schema: argumentsOf(OPERATIONS.placeOrder),
      confirm: (args) => confirmationOf(OPERATIONS.placeOrder, args),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.placeOrder, args)),
    }),
    defineTool({
      name: "get_order_by_id",
      description:
        "Find purchase order by ID. For valid response try integer IDs with value <= 5 or > 10. Other values will generate exceptions. (GET /store/order/{orderId})",
      schema: argumentsOf(OPERATIONS.getOrderById),
      resource: (args) => ({ order: String(args.orderId) }),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.getOrderById, args)),
    }),
    defineTool({
      name: "delete_order",
      description:
        "Delete purchase order by identifier. For valid response try integer IDs with value < 1000. Anything above 1000 or non-integers will generate API errors. (DELETE /store/order/{orderId})",
      schema: argumentsOf(OPERATIONS.deleteOrder),
      confirm: (args) => confirmationOf(OPERATIONS.deleteOrder, args),
      resource: (args) => ({ order: String(args.orderId) }),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.deleteOrder, args)),
    }),
    defineTool({
      name: "create_user",
      description: "Create user. This can only be done by the logged in user. (POST /user)",
      schema: argumentsOf(OPERATIONS.createUser),
      confirm: (args) => confirmationOf(OPERATIONS.createUser, args),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.createUser, args)),
    }),
    defineTool({
      name: "create_users_with_list_input",
      description: "Creates list of users with given input array. (POST /user/createWithList)",
      schema: argumentsOf(OPERATIONS.createUsersWithListInput),
      confirm: (args) => confirmationOf(OPERATIONS.createUsersWithListInput, args),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.createUsersWithListInput, args)),
    }),
    defineTool({
      name: "login_user",
      description: "Logs user into the system. Log into the system. (GET /user/login)",
      schema: argumentsOf(OPERATIONS.loginUser),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.loginUser, args)),
    }),
    defineTool({
      name: "logout_user",
      description: "Logs out current logged in user session. Log user out of the system. (GET /user/logout)",
      schema: argumentsOf(OPERATIONS.logoutUser),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.logoutUser, args)),
    }),
    defineTool({
      name: "get_user_by_name",
      description: "Get user by user name. Get user detail based on username. (GET /user/{username})",
      schema: argumentsOf(OPERATIONS.getUserByName),
      resource: (args) => ({ username: String(args.username) }),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.getUserByName, args)),
    }),
    defineTool({
      name: "update_user",
      description:
        "Update user resource. This can only be done by the logged in user. (PUT /user/{username})",
      schema: argumentsOf(OPERATIONS.updateUser),
      confirm: (args) => confirmationOf(OPERATIONS.updateUser, args),
      resource: (args) => ({ username: String(args.username) }),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.updateUser, args)),
    }),
    defineTool({
      name: "delete_user",
      description:
        "Delete user resource. This can only be done by the logged in user. (DELETE /user/{username})",
      schema: argumentsOf(OPERATIONS.deleteUser),
      confirm: (args) => confirmationOf(OPERATIONS.deleteUser, args),
      resource: (args) => ({ username: String(args.username) }),
      run: (args, ctx) => client.call(ctx, (api) => api.call(OPERATIONS.deleteUser, args)),
    }),
  ];
}
