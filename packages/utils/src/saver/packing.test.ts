import { describe, expect, it } from "vitest";
import { bytesOf, pack, typeField, unpack } from "./packing.js";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("packing", () => {
  it("deflates a value when that is smaller, and reads it back", () => {
    const value = new TextEncoder().encode(
      JSON.stringify({ messages: Array(20).fill({ content: "hello" }) }),
    );
    const packed = pack("json", value);
    expect(packed.type).toBe("json+zd1");
    expect(packed.data.length()).toBeLessThan(value.byteLength);
    const { type, bytes } = unpack(packed.type, packed.data);
    expect(type).toBe("json");
    expect(text(bytes)).toBe(text(value));
  });

  it("stores a short value as it is", () => {
    const packed = pack("json", new TextEncoder().encode("[1]"));
    expect(packed.type).toBe("json");
    expect(text(bytesOf(packed.data))).toBe("[1]");
  });

  it("names a value's type only when it is not plain json", () => {
    expect(typeField("json")).toEqual({});
    expect(typeField("json+zd1")).toEqual({ t: "json+zd1" });
  });
});
