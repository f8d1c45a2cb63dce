import { createLogger } from "@switchboard/common";
import { describe, expect, it } from "vitest";
import { descriptionFile, petstoreTools } from "./tools.js";

// What each tool of the description tells the policy it acts on, and which ask first: nothing is called.
const tools = await petstoreTools({}, createLogger({ level: "silent" }));
const byName = (name: string) => tools.find((one) => one.tool.name === name);

describe("Petstore tools, from openapi.json at run time", () => {
  it("finds the package's openapi.json from its own module", () => {
    expect(descriptionFile()).toMatch(/agents[/\\]petstore[/\\]openapi\.json$/);
  });

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
    expect(byName("delete_pet")?.confirm?.({ petId: 7 })).toContain("(DELETE /pet/7)");
  });

  it("names the resources of path parameters: pet, order, username", () => {
    expect(byName("get_pet_by_id")?.resource?.({ petId: 7 })).toEqual({ pet: "7" });
    expect(byName("delete_order")?.resource?.({ orderId: 5 })).toEqual({ order: "5" });
    expect(byName("update_user")?.resource?.({ username: "theUser", body: {} })).toEqual({
      username: "theUser",
    });
    expect(byName("find_pets_by_status")?.resource).toBeUndefined();
  });
});
