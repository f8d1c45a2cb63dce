import { describe, expect, it } from "vitest";
import { nextAfter, seedParts } from "./seed.js";

const defaults = { pets: [{ id: 1, name: "Rex" }], owner: { name: "Ann" }, changes: [] as string[] };
const parts = ["pets", "owner"] as const;

describe("a fake's seed", () => {
  it("replaces only the parts it names, as a copy the fake cannot change", () => {
    const seed = { pets: [{ id: 7, name: "Tom" }] };
    const state = { ...defaults, ...seedParts("Petstore", defaults, seed, parts) };
    expect(state).toEqual({ pets: [{ id: 7, name: "Tom" }], owner: { name: "Ann" }, changes: [] });
    state.pets.push({ id: 8, name: "Jerry" });
    expect(seed.pets).toHaveLength(1);
  });

  it("is nothing when absent", () => {
    expect(seedParts("Petstore", defaults, undefined, parts)).toEqual({});
  });

  it("names a part the fake does not take, and the parts it does", () => {
    expect(() => seedParts("Petstore", defaults, { pet: [] }, parts)).toThrow(
      "The Petstore seed names pet, which is not a part it takes: it takes pets, owner, each replacing that part of its default state.",
    );
    // What the fake records as it runs is not seeded.
    expect(() => seedParts("Petstore", defaults, { changes: [] }, parts)).toThrow("names changes");
  });

  it("refuses a part of the wrong shape, and a seed that is not an object", () => {
    expect(() => seedParts("Petstore", defaults, { pets: { id: 1 } }, parts)).toThrow(
      "The Petstore seed's pets must be a list.",
    );
    expect(() => seedParts("Petstore", defaults, { owner: ["Ann"] }, parts)).toThrow(
      "The Petstore seed's owner must be an object.",
    );
    expect(() => seedParts("Petstore", defaults, [{ id: 1 }], parts)).toThrow(
      "The Petstore seed must be an object of parts of its state",
    );
  });

  it("numbers what the API creates after every seeded id", () => {
    expect(nextAfter(100, [3, "250", undefined, "PAGE"])).toBe(251);
    expect(nextAfter(100, [3])).toBe(100);
  });
});
