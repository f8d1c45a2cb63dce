/** The gRPC address a card names by default: the public URL's host, on the gRPC port. */
export function grpcAddress(publicUrl: string, port: number): string {
  return `${new URL(publicUrl).hostname}:${port}`;
}
