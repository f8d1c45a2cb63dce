import type { RequestHandler } from "express";

/**
 * Headers that keep the page to its own code: scripts and styles only from this server (the
 * sanitized answers could not run a script even if sanitizing failed), connections only to this
 * server and the identity provider, and no framing.
 */
export function securityHeaders(connectOrigins: string[]): RequestHandler {
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${["'self'", ...connectOrigins].join(" ")}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return (_req, res, next) => {
    res.set({
      "content-security-policy": policy,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
    });
    next();
  };
}
