import { describe, expect, it } from "vitest";
import type { PetstoreClient } from "./client.js";
import { petstoreTools } from "./tools.js";

// What each generated tool tells the policy it acts on, and which ask first: nothing is called.
const tools = petstoreTools({} as PetstoreClient);
const byName = (name: string) => tools.find((one) => one.tool.name === name);

describe("Petstore tools, as pnpm new-agent --openapi made them", () => {
  it("makes GET operations reads and the others changes that ask first", () => {
    const reads = tools.filter((one) => !one.confirm).map((one) => one.tool.name);
    expect(reads).toEqual([
      "find_pets_by_status",
      "find_pets_by_tags",
      "get_pet_by_id",
      "get_inventory",
      "get_order_by_id",
      "login_user",
      "logout_user",
      "get_user_by_name",
    ]);
    expect(tools).toHaveLength(18);
    expect(byName("upload_file")).toBeUndefined();
    expect(byName("delete_pet")?.confirm?.({ petId: 7 })).toBe(
      "Deletes a pet. Delete a pet. (DELETE /pet/7)",
    );
  });

  it("names the resources of path parameters: pet, order, username", () => {
    expect(byName("get_pet_by_id")?.resource?.({ petId: 7 })).toEqual({ pet: "7" });
    expect(byName("delete_pet")?.resource?.({ petId: 7 })).toEqual({ pet: "7" });
    expect(byName("delete_order")?.resource?.({ orderId: 5 })).toEqual({ order: "5" });
    expect(byName("update_user")?.resource?.({ username: "theUser", body: {} })).toEqual({
      username: "theUser",
    });
    expect(byName("find_pets_by_status")?.resource).toBeUndefined();
  });

  it("checks arguments against the description's schemas before anything runs", () => {
    const getPet = byName("get_pet_by_id");
    expect(getPet?.resource?.({ petId: "seven" })).toBeUndefined();
    expect(byName("add_pet")?.confirm?.({ body: { name: "Rex" } })).toBeUndefined(); // photoUrls is required
  });
});
