import { z } from "zod";
import { replyFromToolResult } from "./replies.js";
import type { Rule } from "./rules.js";

// What the client tests of this package share: a tool the clients offer, and the rules of a turn that
// calls it twice at once ("weather in Oslo and Lima") and answers from both results.

export const weatherTool = {
  name: "get_weather",
  description: "The weather in a city",
  schema: z.object({ city: z.string().describe("City name"), unit: z.enum(["C", "F"]).optional() }),
};

export const parallelWeatherRules: Rule[] = [
  {
    lastUser: /weather in (\w+) and (\w+)/,
    reply: (_request, { match }) => ({
      toolCalls: [
        { name: "get_weather", args: { city: match?.[1] } },
        { name: "get_weather", args: { city: match?.[2] } },
      ],
    }),
  },
  { afterTool: "get_weather", reply: replyFromToolResult() },
];
