import type { ViteUserConfig } from "vitest/config";

export const UNIT_ONLY: string;
export const SOURCE_CONDITION: string;
export function defineTestConfig(options?: { mongo?: boolean } & ViteUserConfig): ViteUserConfig;
