import { SwitchboardError } from "@switchboard/common";

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

function url(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name]?.trim() || fallback;
  try {
    new URL(value);
  } catch {
    throw new SwitchboardError("weather.settings", "user", `${name}=${JSON.stringify(value)} is not a URL.`);
  }
  return value.replace(/\/+$/, "");
}

/** Open-Meteo needs no key: the defaults work as they are; the settings point elsewhere (a mirror, tests). */
export function readWeatherSettings(env: NodeJS.ProcessEnv): WeatherSettings {
  return {
    forecastUrl: url(env, "WEATHER_API_URL", DEFAULT_FORECAST_URL),
    geocodingUrl: url(env, "WEATHER_GEOCODING_API_URL", DEFAULT_GEOCODING_URL),
    apiKey: env.WEATHER_API_KEY?.trim() || undefined,
  };
}
