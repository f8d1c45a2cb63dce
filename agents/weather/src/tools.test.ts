import { describe, expect, it } from "vitest";
import type { WeatherClient } from "./client.js";
import { weatherTools } from "./tools.js";

// What each tool tells the policy a call is about: nothing is called, so no client is needed.
const tools = weatherTools({} as WeatherClient);
const resourceOf = (name: string, args: Record<string, unknown>) =>
  tools.find((one) => one.tool.name === name)?.resource?.(args);

describe("Weather tools name the place a call is about", () => {
  it("names the place in lower case, and the country code in upper case when given", () => {
    expect(resourceOf("current_weather", { place: "Paris" })).toEqual({ place: "paris" });
    expect(resourceOf("weather_forecast", { place: "Paris ", country: "us" })).toEqual({
      place: "paris",
      country: "US",
    });
    expect(resourceOf("find_place", { place: "London", country: "GB" })).toEqual({
      place: "london",
      country: "GB",
    });
  });

  it("only reads: no tool asks first", () => {
    expect(tools.map((one) => one.tool.name)).toEqual(["find_place", "current_weather", "weather_forecast"]);
    expect(tools.filter((one) => one.confirm)).toEqual([]);
  });
});
