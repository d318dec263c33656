/** The page's CSP nonce reaches the style libraries (src/app/nonce.ts; the policy: server security-headers.ts). */
describe('the CSP nonce of the page', () => {
  afterEach(() => {
    document.head.innerHTML = '';
    delete (window as { __nonce__?: string }).__nonce__;
  });

  const load = async () => {
    let nonce: string | undefined;
    await jest.isolateModulesAsync(async () => {
      ({ CSP_NONCE: nonce } = await import('@/app/nonce'));
    });
    return nonce;
  };

  test('is read from the page and handed to goober (notistack) through window.__nonce__', async () => {
    document.head.innerHTML = '<meta property="csp-nonce" content="c2VjcmV0LW5vbmNl">';
    expect(await load()).toBe('c2VjcmV0LW5vbmNl');
    expect((window as { __nonce__?: string }).__nonce__).toBe('c2VjcmV0LW5vbmNl');
  });

  test('is absent when the page names none (then nothing is set)', async () => {
    expect(await load()).toBeUndefined();
    expect((window as { __nonce__?: string }).__nonce__).toBeUndefined();
  });
});
