import { describe, expect, it } from "vitest";
import type { WebexClient } from "./client.js";
import { webexTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = webexTools({} as WebexClient);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);
const ROOM_ID = "Y2lzY29zcGFyazovL3VzL1JPT00vNWJlM2UxMmYtNDdjNC00YWQ1LTk2ZWQtMmFmZjE0YjM0NmQy";

describe("Webex tools name the room (and person) a call acts on", () => {
  it("names a room by its Webex id as given, else by its title in lower case", () => {
    expect(resourceOf("list_messages", { room: ROOM_ID })).toEqual({ room: ROOM_ID });
    expect(resourceOf("list_messages", { room: "Platform Incidents" })).toEqual({
      room: "platform incidents",
    });
    expect(resourceOf("get_room", { room: "Release train" })).toEqual({ room: "release train" });
    expect(resourceOf("list_members", { room: ROOM_ID })).toEqual({ room: ROOM_ID });
    expect(resourceOf("post_message", { room: "Platform incidents", text: "done" })).toEqual({
      room: "platform incidents",
    });
  });

  it("names the person added by email in lower case, and a new room's team when given", () => {
    expect(resourceOf("add_member", { room: "Release train", email: "Bob@Example.com" })).toEqual({
      room: "release train",
      person: "bob@example.com",
    });
    expect(resourceOf("create_room", { title: "War room" })).toEqual({});
    expect(resourceOf("create_room", { title: "War room", team: "team-1" })).toEqual({ team: "team-1" });
    expect(resourceOf("list_rooms", {})).toBeUndefined();
  });

  it("asks before every change", () => {
    const changes = tools.filter((one) => one.confirm).map((one) => one.tool.name);
    expect(changes.sort()).toEqual(["add_member", "create_room", "post_message"]);
  });
});
