import { isIP } from "node:net";
import { connect, type DetailedPeerCertificate } from "node:tls";
import type { Address } from "../targets.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Why Node does not trust a certificate, in words. */
const TRUST_ERRORS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "a self-signed certificate in the chain",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its issuer is not known (incomplete chain?)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "its issuer is not a trusted CA",
  CERT_HAS_EXPIRED: "expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "the name does not match",
};

/**
 * The certificate a TLS server presents for a name (SNI), read without trusting it (so expired and
 * self-signed ones are shown, with why they are not trusted): subject, names, issuer, validity and
 * days until expiry.
 */
export function tlsCertificate(
  host: string,
  target: Address,
  port: number,
  timeoutMs: number,
): Promise<string> {
  const servername = isIP(host) ? undefined : host;
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: target.address,
      port,
      ...(servername ? { servername } : {}),
      rejectUnauthorized: false,
    });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(
        new Error(`${host}:${port} did not complete a TLS handshake in ${Math.round(timeoutMs / 1000)} s.`),
      );
    });
    socket.once("error", (error: NodeJS.ErrnoException) =>
      reject(new Error(`TLS to ${host}:${port} failed: ${error.code ?? ""} ${error.message}`.trim())),
    );
    socket.once("secureConnect", () => {
      const certificate = socket.getPeerCertificate(true);
      let trust = "trusted by the system's CAs";
      if (!socket.authorized) {
        const code = String(socket.authorizationError ?? "");
        trust = `NOT trusted: ${TRUST_ERRORS[code] ?? code}`;
      } else if (servername && !certificateNames(certificate).some((name) => matches(name, servername))) {
        trust = `NOT valid for ${servername}: the name does not match`;
      }
      const protocol = socket.getProtocol();
      socket.end();
      resolve(describeCertificate(host, target, port, certificate, trust, protocol));
    });
  });
}

function certificateNames(certificate: DetailedPeerCertificate): string[] {
  const alt = certificate.subjectaltname ?? "";
  return alt
    .split(",")
    .map((one) => one.trim())
    .filter((one) => one.startsWith("DNS:"))
    .map((one) => one.slice(4).toLowerCase());
}

function matches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  return (
    pattern.startsWith("*.") &&
    name.endsWith(pattern.slice(1)) &&
    !name.slice(0, -pattern.length + 1).includes(".")
  );
}

function describeCertificate(
  host: string,
  target: Address,
  port: number,
  certificate: DetailedPeerCertificate,
  trust: string,
  protocol: string | null,
): string {
  const expires = new Date(certificate.valid_to);
  const days = Math.floor((expires.getTime() - Date.now()) / DAY_MS);
  const expiry = days >= 0 ? `expires in ${days} day${days === 1 ? "" : "s"}` : `EXPIRED ${-days} days ago`;
  const issuer = certificate.issuer?.O ?? certificate.issuer?.CN ?? "unknown";
  const alt = certificate.subjectaltname ? certificate.subjectaltname.replaceAll("DNS:", "") : "none";
  return [
    `TLS certificate of ${host}${host === target.address ? "" : ` (${target.address})`}:${port} (${protocol ?? "TLS"}):`,
    `  subject: ${certificate.subject?.CN ?? "(no CN)"}`,
    `  names: ${alt}`,
    `  issuer: ${issuer}${certificate.issuer?.CN && certificate.issuer.CN !== issuer ? ` (${certificate.issuer.CN})` : ""}`,
    `  valid from ${new Date(certificate.valid_from).toISOString()} to ${expires.toISOString()}: ${expiry}`,
    `  ${trust}`,
    `  SHA-256 fingerprint: ${certificate.fingerprint256}`,
  ].join("\n");
}
