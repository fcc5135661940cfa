const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether a host name or address is this machine's. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host);
}
