/**
 * A vendor the fleet reaches at one fixed address for the whole evaluation (not through the
 * evaluation's per-vendor proxies): each case gets fresh state there before it runs.
 */
export interface PlacedVendor {
  /** The fleet's settings for the vendor: where it stands, with which credentials. */
  env: Record<string, string>;
  /** Gives the case fresh state, its seed applied (undefined: the vendor's default state). */
  begin(seed: unknown): Promise<void>;
  /** The case has ended: nothing of its state may reach the next. */
  end(): Promise<void>;
  /** Starts what takes a while to start (moto's Python) without waiting for it, for an early caller. */
  warm?(): void;
  /** What stands there now, to look at what a case changed. */
  server(): unknown;
  close(): Promise<void>;
}
