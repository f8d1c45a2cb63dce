import { describe, expect, it } from "vitest";
import { portableSchema, portableToolName } from "./portable-schema.js";
import { toolProblems } from "./tool-rules.js";

describe("portableSchema", () => {
  it("adds up the properties and required of allOf parts (a base schema and its extension)", () => {
    const schema = {
      type: "object",
      properties: {
        body: {
          allOf: [
            { type: "object", required: ["name"], properties: { name: { type: "string" } } },
            {
              type: "object",
              required: ["size"],
              properties: { size: { oneOf: [{ type: "integer" }, { type: "string" }] } },
              additionalProperties: false,
            },
          ],
        },
      },
    };
    const portable = portableSchema(schema);
    expect(portable.properties).toEqual({
      body: {
        type: "object",
        required: ["name", "size"],
        properties: {
          name: { type: "string" },
          size: { anyOf: [{ type: "integer" }, { type: "string" }] },
        },
      },
    });
    expect(toolProblems("google-gemini", [{ name: "create_thing", parameters: portable }])).toEqual([]);
  });

  it("enums: null is the schema's nullable, other types and long lists are described, not listed", () => {
    const portable = portableSchema({
      type: "object",
      properties: {
        state: { type: ["string", "null"], enum: ["open", "closed", null] },
        level: { enum: [1, 2, 3] },
        country: { type: "string", enum: Array.from({ length: 250 }, (_, i) => `c${i}`) },
      },
    });
    expect(portable.properties).toEqual({
      state: { type: "string", nullable: true, enum: ["open", "closed"] },
      level: { description: "(one of 1, 2, 3)" },
      country: { type: "string", description: '(one of 250 values, such as "c0", "c1", "c2", "c3", "c4")' },
    });
    expect(toolProblems("google-gemini", [{ name: "pick", parameters: portable }])).toEqual([]);
  });

  it("names stay stable and portable: a leading digit gets _, a long name a hash", () => {
    expect(portableToolName("2fa-reset", new Set())).toBe("_2fa-reset");
    const long = portableToolName(`petstore_${"x".repeat(70)}`, new Set());
    expect(long).toHaveLength(64);
    expect(portableToolName(`petstore_${"x".repeat(70)}`, new Set())).toBe(long);
  });
});
