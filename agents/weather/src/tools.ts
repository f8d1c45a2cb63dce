import { type AgentTool, defineTool, type ToolCallContext } from "@switchboard/agent-runtime";
import { z } from "zod";
import type { Place, WeatherClient } from "./client.js";
import { formatCurrent, formatDaily, placeLabel } from "./format.js";

const CURRENT = [
  "temperature_2m",
  "apparent_temperature",
  "relative_humidity_2m",
  "weather_code",
  "wind_speed_10m",
  "wind_gusts_10m",
  "precipitation",
];
const DAILY = [
  "weather_code",
  "temperature_2m_max",
  "temperature_2m_min",
  "precipitation_sum",
  "precipitation_probability_max",
];

const place = z.string().min(1).max(100).describe("A city or place name, e.g. Paris");
const country = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "an ISO 3166-1 alpha-2 country code like FR or US")
  .optional()
  .describe("The place's country code, when the name is ambiguous");

/** What a call is about, for the policy: the place as named (lower case), and its country if given. */
export function placeResource(name: string, countryCode?: string): Record<string, string> {
  return { place: name.trim().toLowerCase(), ...(countryCode ? { country: countryCode.toUpperCase() } : {}) };
}

export function weatherTools(weather: WeatherClient): AgentTool[] {
  return [
    defineTool({
      name: "find_place",
      description: "Find places by name (city, region, country and coordinates), most relevant first",
      schema: z.object({ place, country, count: z.number().int().min(1).max(20).default(5) }),
      resource: ({ place, country }) => placeResource(place, country),
      run: async ({ place, country, count }, ctx) => {
        const places = await weather.call(ctx, (api) =>
          api.search(place, { count, ...countryOption(country) }),
        );
        if (places.length === 0) return noPlace(place, country);
        return places.map(placeLabel).join("\n");
      },
    }),
    defineTool({
      name: "current_weather",
      description:
        "The weather now at a place: temperature, feels-like, conditions, humidity, wind, precipitation",
      schema: z.object({ place, country }),
      resource: ({ place, country }) => placeResource(place, country),
      run: async ({ place, country }, ctx) => {
        const { chosen, others } = await locate(weather, ctx, place, country);
        const forecast = await weather.call(ctx, (api) => api.forecast(chosen, { current: CURRENT }));
        return formatCurrent(chosen, forecast) + others;
      },
    }),
    defineTool({
      name: "weather_forecast",
      description: "The daily forecast for a place: conditions, low and high, precipitation and its chance",
      schema: z.object({ place, country, days: z.number().int().min(1).max(16).default(3) }),
      resource: ({ place, country }) => placeResource(place, country),
      run: async ({ place, country, days }, ctx) => {
        const { chosen, others } = await locate(weather, ctx, place, country);
        const forecast = await weather.call(ctx, (api) =>
          api.forecast(chosen, { daily: DAILY, forecastDays: days }),
        );
        return formatDaily(chosen, forecast) + others;
      },
    }),
  ];
}

const countryOption = (country: string | undefined) =>
  country ? { countryCode: country.toUpperCase() } : {};

function noPlace(name: string, country: string | undefined): string {
  return `Open-Meteo knows no place named "${name}"${country ? ` in ${country.toUpperCase()}` : ""}; check the spelling or name a nearby city.`;
}

/** The most relevant place of that name, and a note naming the others so the user can pick one. */
async function locate(
  weather: WeatherClient,
  ctx: ToolCallContext,
  name: string,
  country: string | undefined,
): Promise<{ chosen: Place; others: string }> {
  const places = await weather.call(ctx, (api) => api.search(name, { count: 3, ...countryOption(country) }));
  const [chosen, ...rest] = places;
  if (!chosen) throw new Error(noPlace(name, country));
  const others =
    rest.length > 0
      ? `\n(Other places named ${name}: ${rest.map(placeLabel).join("; ")}. Name the country to pick another.)`
      : "";
  return { chosen, others };
}
