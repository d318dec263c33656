import { proxyWebSocketUrl } from '@/shared/lib/proxyUrl';

const ID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

describe('proxy WebSocket URLs (spec §2)', () => {
  it('use wss for https pages', () => {
    const location = { protocol: 'https:', host: 'ctf.example.org' };
    expect(proxyWebSocketUrl(ID, { location })).toBe(`wss://ctf.example.org/api/proxy/${ID}`);
    expect(proxyWebSocketUrl(ID, { location, noInstance: true })).toBe(`wss://ctf.example.org/api/proxy/noinst/${ID}`);
  });

  it('use ws for http pages, keeping the port', () => {
    const location = { protocol: 'http:', host: 'localhost:8080' };
    expect(proxyWebSocketUrl(ID, { location })).toBe(`ws://localhost:8080/api/proxy/${ID}`);
    expect(proxyWebSocketUrl(ID, { location, noInstance: true })).toBe(`ws://localhost:8080/api/proxy/noinst/${ID}`);
  });

  it('default to the current page', () => {
    expect(proxyWebSocketUrl(ID)).toBe(`ws://localhost/api/proxy/${ID}`);
  });

  it('never let an id escape its path segment', () => {
    expect(proxyWebSocketUrl('../admin?x', { location: { protocol: 'http:', host: 'h' } })).toBe(
      'ws://h/api/proxy/..%2Fadmin%3Fx',
    );
  });
});
