import { parseEnv } from "@switchboard/common";
import { z } from "zod";

export interface WeatherSettings {
  /** Open-Meteo's forecast API, without a trailing slash. */
  forecastUrl: string;
  /** Open-Meteo's geocoding API. */
  geocodingUrl: string;
  /** Open-Meteo's commercial key (sent as `apikey`, with its customer-… hosts); the free API needs none. */
  apiKey: string | undefined;
}

export const DEFAULT_FORECAST_URL = "https://api.open-meteo.com";
export const DEFAULT_GEOCODING_URL = "https://geocoding-api.open-meteo.com";

/** A URL setting with its default, without a trailing slash; a value that is no URL is named. */
function url(name: string, fallback: string) {
  return z
    .string()
    .trim()
    .default(fallback)
    .refine((value) => URL.canParse(value), {
      error: (issue) => `${name}=${JSON.stringify(issue.input)} is not a URL.`,
    })
    .transform((value) => value.replace(/\/+$/, ""));
}

const WeatherEnv = z.object({
  WEATHER_API_URL: url("WEATHER_API_URL", DEFAULT_FORECAST_URL),
  WEATHER_GEOCODING_API_URL: url("WEATHER_GEOCODING_API_URL", DEFAULT_GEOCODING_URL),
  WEATHER_API_KEY: z.string().trim().optional(),
});

/** Open-Meteo needs no key: the defaults work as they are; the settings point elsewhere (a mirror, tests). */
export function readWeatherSettings(env: NodeJS.ProcessEnv): WeatherSettings {
  const e = parseEnv(WeatherEnv, env, { code: "weather.settings", what: "Weather settings" });
  return {
    forecastUrl: e.WEATHER_API_URL,
    geocodingUrl: e.WEATHER_GEOCODING_API_URL,
    apiKey: e.WEATHER_API_KEY,
  };
}
