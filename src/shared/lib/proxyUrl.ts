/** The parts of `window.location` a proxy URL depends on. */
export interface PageLocation {
  protocol: string;
  host: string;
}

/**
 * The WebSocket address of the platform proxy for a container (spec §2): `ws(s)://{host}/api/proxy/{id}`,
 * or `/api/proxy/noinst/{id}` for the no-instance variant (a test container in the admin pages).
 * Pages served over https get `wss`, plain http pages `ws`.
 */
export function proxyWebSocketUrl(
  id: string,
  { noInstance = false, location = window.location }: { noInstance?: boolean; location?: PageLocation } = {},
): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const path = noInstance ? 'api/proxy/noinst' : 'api/proxy';
  return `${scheme}://${location.host}/${path}/${encodeURIComponent(id)}`;
}
