import { requestJson, VendorClient } from "@switchboard/agent-runtime";
import { readWeatherSettings, type WeatherSettings } from "./env.js";

/** A place as Open-Meteo's geocoding API answers it. */
export interface Place {
  id: number;
  name: string;
  latitude: number;
  longitude: number;
  country?: string;
  country_code?: string;
  admin1?: string;
  timezone?: string;
  population?: number;
}

/** Open-Meteo's forecast answer: the variables asked for, under `current` and `daily`. */
export interface Forecast {
  timezone: string;
  current?: Record<string, number | string>;
  current_units?: Record<string, string>;
  daily?: Record<string, Array<number | string>>;
  daily_units?: Record<string, string>;
}

export interface WeatherApi {
  /** GET /v1/search: places by name, most relevant first. */
  search(name: string, options: { count: number; countryCode?: string }): Promise<Place[]>;
  /** GET /v1/forecast for a coordinate, with the `current` and `daily` variables named. */
  forecast(
    place: Place,
    query: { current?: string[]; daily?: string[]; forecastDays?: number },
  ): Promise<Forecast>;
}

export type WeatherClient = VendorClient<WeatherApi, WeatherSettings>;

/**
 * Open-Meteo's JSON API over fetch. Its own SDK (`openmeteo`) reads the FlatBuffers format instead;
 * JSON is the format its documentation and its OpenAPI description give, and what the tests' fake
 * speaks (validated against that description).
 */
export function weatherClient(env: NodeJS.ProcessEnv): WeatherClient {
  return new VendorClient(
    {
      vendor: "Open-Meteo",
      code: "weather",
      settings: readWeatherSettings,
      connect: openMeteo,
      names: ({ forecastUrl }) => ({
        url: forecastUrl,
        credentials: "WEATHER_API_KEY",
        address: "WEATHER_API_URL (and WEATHER_GEOCODING_API_URL)",
      }),
      secrets: ({ apiKey }) => (apiKey ? [apiKey] : []),
    },
    env,
  );
}

function openMeteo({ forecastUrl, geocodingUrl, apiKey }: WeatherSettings): WeatherApi {
  const withKey = (params: URLSearchParams) => {
    if (apiKey) params.set("apikey", apiKey);
    return params;
  };
  return {
    search: async (name, { count, countryCode }) => {
      const params = withKey(
        new URLSearchParams({ name, count: String(count), language: "en", format: "json" }),
      );
      if (countryCode) params.set("countryCode", countryCode);
      const answer = await requestJson<{ results?: Place[] }>({ url: `${geocodingUrl}/v1/search?${params}` });
      return answer.results ?? [];
    },
    forecast: (place, { current, daily, forecastDays }) => {
      const params = withKey(
        new URLSearchParams({
          latitude: String(place.latitude),
          longitude: String(place.longitude),
          timezone: "auto",
        }),
      );
      if (current?.length) params.set("current", current.join(","));
      if (daily?.length) params.set("daily", daily.join(","));
      if (forecastDays) params.set("forecast_days", String(forecastDays));
      return requestJson<Forecast>({ url: `${forecastUrl}/v1/forecast?${params}` });
    },
  };
}
