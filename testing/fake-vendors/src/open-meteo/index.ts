import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Document } from "openapi-backend";
import { parse } from "yaml";
import { seedParts } from "../seed.js";
import {
  type RouteContext,
  startVendorServer,
  VendorHttpError,
  type VendorServer,
} from "../vendor-server.js";
import { type SeededPlace, seedPlaces } from "./places.js";

export type { Place, PlaceWeather, SeededPlace } from "./places.js";

/**
 * What a test or an evaluation case can seed: the places the geocoding API finds, each with the
 * weather the forecast API reports there (replacing the default places whole).
 */
export interface OpenMeteoSeed {
  places?: SeededPlace[];
}

/** Open-Meteo's forecast API and its geocoding API: two hosts, as Open-Meteo serves them. */
export interface FakeOpenMeteo {
  /** Where GET /v1/forecast is served (api.open-meteo.com): driven by Open-Meteo's OpenAPI description. */
  forecast: VendorServer;
  /** Where GET /v1/search is served (geocoding-api.open-meteo.com), as its documentation describes it. */
  geocoding: VendorServer;
  places: SeededPlace[];
  /**
   * Replaces every place with the seed's (none: the default places), as a fake started with that
   * seed would have them: one evaluation case's places never reach the next at the same address.
   */
  reseed(seed?: OpenMeteoSeed): void;
  close(): Promise<void>;
}

// specs/ beside src/ and dist/.
const FORECAST_SPEC = join(import.meta.dirname, "..", "..", "specs", "open-meteo", "forecast.yml");

/** Open-Meteo's error body: `{ error: true, reason }`. */
const errorBody = (error: VendorHttpError) => ({
  error: true,
  reason: [error.message, ...error.details].join("; "),
});

const list = (query: URLSearchParams, name: string) =>
  (query.get(name) ?? "")
    .split(",")
    .map((one) => one.trim())
    .filter(Boolean);

/** The place a coordinate is (Open-Meteo answers any coordinate; the fake knows its seeded places). */
function placeAt(places: SeededPlace[], query: URLSearchParams): SeededPlace {
  const latitude = Number(query.get("latitude"));
  const longitude = Number(query.get("longitude"));
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90)
    throw new VendorHttpError(
      400,
      `Latitude must be in range of -90 to 90°. Given: ${query.get("latitude")}.`,
    );
  const place = places.find(
    (one) => Math.abs(one.latitude - latitude) < 0.01 && Math.abs(one.longitude - longitude) < 0.01,
  );
  if (!place)
    throw new VendorHttpError(400, `fake Open-Meteo has no weather seeded at ${latitude},${longitude}`);
  return place;
}

const UNITS: Record<string, string> = {
  temperature_2m: "°C",
  apparent_temperature: "°C",
  relative_humidity_2m: "%",
  weather_code: "wmo code",
  wind_speed_10m: "km/h",
  wind_gusts_10m: "km/h",
  precipitation: "mm",
  temperature_2m_max: "°C",
  temperature_2m_min: "°C",
  precipitation_sum: "mm",
  precipitation_probability_max: "%",
};

function forecast({ query }: RouteContext, places: SeededPlace[]) {
  const place = placeAt(places, query);
  const { current, days } = place.weather;
  const nowValues: Record<string, number> = {
    temperature_2m: current.temperature,
    apparent_temperature: current.apparent,
    relative_humidity_2m: current.humidity,
    weather_code: current.code,
    wind_speed_10m: current.wind,
    wind_gusts_10m: current.gusts,
    precipitation: current.precipitation,
  };
  const forecastDays = Math.min(Number(query.get("forecast_days") ?? 7), days.length);
  const shownDays = days.slice(0, forecastDays);
  const dailyValues: Record<string, number[]> = {
    weather_code: shownDays.map((day) => day.code),
    temperature_2m_max: shownDays.map((day) => day.max),
    temperature_2m_min: shownDays.map((day) => day.min),
    precipitation_sum: shownDays.map((day) => day.precipitation),
    precipitation_probability_max: shownDays.map((day) => day.rainChance),
  };
  const body: Record<string, unknown> = {
    latitude: place.latitude,
    longitude: place.longitude,
    elevation: place.elevation,
    generationtime_ms: 0.1,
    utc_offset_seconds: 0,
    timezone: query.get("timezone") === "auto" ? place.timezone : "GMT",
    timezone_abbreviation: "GMT",
  };
  const currentNames = list(query, "current");
  if (currentNames.length > 0) {
    body.current_units = Object.fromEntries([
      ["time", "iso8601"],
      ["interval", "seconds"],
      ...currentNames.map((name) => [name, UNITS[name] ?? ""]),
    ]);
    body.current = Object.fromEntries([
      ["time", "2026-06-01T12:00"],
      ["interval", 900],
      ...currentNames.map((name) => [name, nowValues[name] ?? 0]),
    ]);
  }
  const dailyNames = list(query, "daily");
  if (dailyNames.length > 0) {
    body.daily_units = Object.fromEntries([
      ["time", "iso8601"],
      ...dailyNames.map((name) => [name, UNITS[name] ?? ""]),
    ]);
    body.daily = Object.fromEntries([
      ["time", shownDays.map((_day, index) => `2026-06-0${index + 1}`)],
      ...dailyNames.map((name) => [name, dailyValues[name] ?? shownDays.map(() => 0)]),
    ]);
  }
  return { status: 200, body };
}

function search({ query }: RouteContext, places: SeededPlace[]) {
  const name = query.get("name")?.trim() ?? "";
  if (!name) throw new VendorHttpError(400, "Parameter 'name' is required");
  const count = Number(query.get("count") ?? 10);
  const countryCode = query.get("countryCode");
  const matches = places
    .filter((place) => place.name.toLowerCase().startsWith(name.toLowerCase()))
    .filter((place) => !countryCode || place.country_code === countryCode.toUpperCase())
    .sort((a, b) => (b.population ?? 0) - (a.population ?? 0))
    .slice(0, count)
    .map(({ weather: _weather, ...place }) => place);
  // Open-Meteo leaves `results` out when nothing matches.
  return {
    status: 200,
    body: { ...(matches.length > 0 ? { results: matches } : {}), generationtime_ms: 0.2 },
  };
}

/** Starts Open-Meteo look-alikes on loopback: the forecast API (spec-driven) and the geocoding API. */
export async function startFakeOpenMeteo(options: { seed?: OpenMeteoSeed } = {}): Promise<FakeOpenMeteo> {
  const placesOf = (seed: OpenMeteoSeed | undefined) => {
    const defaults = { places: seedPlaces() };
    return { ...defaults, ...seedParts("Open-Meteo", defaults, seed, ["places"]) }.places;
  };
  const places = placesOf(options.seed);
  const document = parse(await readFile(FORECAST_SPEC, "utf8")) as Document;
  // The description names no operationIds; the fake names its one operation to route it.
  const get = (document.paths?.["/v1/forecast"] as { get?: { operationId?: string } } | undefined)?.get;
  if (!get) throw new Error(`${FORECAST_SPEC} has no GET /v1/forecast`);
  get.operationId = "forecast";
  // Open-Meteo is keyless (an apikey is for its commercial hosts): no request is refused for credentials.
  const open = () => undefined;
  const forecastServer = await startVendorServer({
    name: "Open-Meteo",
    openApi: { document, operations: { forecast: (ctx) => forecast(ctx, places) } },
    checkRequest: open,
    errorBody,
  });
  const geocoding = await startVendorServer({
    name: "Open-Meteo geocoding",
    routes: [["GET", "/v1/search", (ctx) => search(ctx, places)]],
    checkRequest: open,
    errorBody,
  });
  return {
    forecast: forecastServer,
    geocoding,
    places,
    reseed: (seed) => {
      places.splice(0, places.length, ...placesOf(seed));
    },
    close: async () => {
      await Promise.all([forecastServer.close(), geocoding.close()]);
    },
  };
}
