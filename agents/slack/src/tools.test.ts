import { describe, expect, it } from "vitest";
import type { SlackConnection } from "./client.js";
import { slackTools } from "./tools.js";

// What each tool tells the policy a call acts on: nothing is called, so no connection is needed.
const tools = slackTools({} as SlackConnection);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("Slack tools name the channel a call acts on", () => {
  it("names a channel by its name without # in lower case (Slack's names are lower case)", () => {
    expect(resourceOf("read_channel", { channel: "#Incidents" })).toEqual({ channel: "incidents" });
    expect(resourceOf("post_message", { channel: "incidents", text: "hi" })).toEqual({
      channel: "incidents",
    });
  });

  it("names a channel given by id as Slack writes ids", () => {
    expect(resourceOf("post_message", { channel: "C0123ABCD", text: "hi" })).toEqual({
      channel: "C0123ABCD",
    });
    expect(resourceOf("read_channel", { channel: "G0456EFGH" })).toEqual({ channel: "G0456EFGH" });
  });

  it("leaves the channel search to the tool as a whole", () => {
    expect(resourceOf("list_channels", { query: "inc" })).toBeUndefined();
  });
});
