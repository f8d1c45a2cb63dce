import type { Forecast, Place } from "./client.js";

/** The WMO weather interpretation codes Open-Meteo reports as `weather_code`. */
const WMO_CODES: Record<number, string> = {
  0: "clear sky",
  1: "mainly clear",
  2: "partly cloudy",
  3: "overcast",
  45: "fog",
  48: "depositing rime fog",
  51: "light drizzle",
  53: "moderate drizzle",
  55: "dense drizzle",
  56: "light freezing drizzle",
  57: "dense freezing drizzle",
  61: "slight rain",
  63: "moderate rain",
  65: "heavy rain",
  66: "light freezing rain",
  67: "heavy freezing rain",
  71: "slight snow fall",
  73: "moderate snow fall",
  75: "heavy snow fall",
  77: "snow grains",
  80: "slight rain showers",
  81: "moderate rain showers",
  82: "violent rain showers",
  85: "slight snow showers",
  86: "heavy snow showers",
  95: "thunderstorm",
  96: "thunderstorm with slight hail",
  99: "thunderstorm with heavy hail",
};

export const describeCode = (code: unknown): string => WMO_CODES[Number(code)] ?? `weather code ${code}`;

/** "Paris, Île-de-France, France (48.85, 2.35)". */
export function placeLabel(place: Place): string {
  const parts = [place.name, place.admin1, place.country].filter(
    (part, index, all) => part && all.indexOf(part) === index,
  );
  return `${parts.join(", ")} (${place.latitude.toFixed(2)}, ${place.longitude.toFixed(2)})`;
}

export function formatCurrent(place: Place, forecast: Forecast): string {
  const now = forecast.current ?? {};
  const unit = (name: string) => (forecast.current_units?.[name] ?? "").replace(/^%$/, "%");
  const value = (name: string) => `${now[name]}${unit(name) === "%" ? "%" : ` ${unit(name)}`}`;
  return (
    `${placeLabel(place)} at ${now.time} (${forecast.timezone}): ${value("temperature_2m")} ` +
    `(feels like ${value("apparent_temperature")}), ${describeCode(now.weather_code)}, humidity ` +
    `${value("relative_humidity_2m")}, wind ${value("wind_speed_10m")} (gusts ${value("wind_gusts_10m")}), ` +
    `precipitation ${value("precipitation")}.`
  );
}

export function formatDaily(place: Place, forecast: Forecast): string {
  const daily = forecast.daily ?? {};
  const units = forecast.daily_units ?? {};
  const days = (daily.time ?? []).map((day, index) => {
    const at = (name: string) => daily[name]?.[index];
    return (
      `  ${day}: ${describeCode(at("weather_code"))}, ${at("temperature_2m_min")}–${at("temperature_2m_max")} ` +
      `${units.temperature_2m_max ?? "°C"}, precipitation ${at("precipitation_sum")} ${units.precipitation_sum ?? "mm"} ` +
      `(chance ${at("precipitation_probability_max")}%)`
    );
  });
  return `Forecast for ${placeLabel(place)} (${forecast.timezone}):\n${days.join("\n")}`;
}
