/**
 * The Content-Security-Policy nonce the server wrote into this page (`<meta property="csp-nonce">`,
 * server/src/plugins/app/security-headers.ts). The policy only lets in `<style>` tags that carry
 * it, so every library that inserts them must be handed it before it inserts its first one:
 * emotion (MUI) gets it through its cache (main.tsx), goober (notistack, which styles itself
 * as its module loads) reads `window.__nonce__`, and webpack puts `__webpack_nonce__` on the tags it
 * adds. main.tsx imports this module first, ahead of anything that could style.
 */
declare let __webpack_nonce__: string | undefined;

export const CSP_NONCE: string | undefined =
  document.querySelector('meta[property="csp-nonce"]')?.getAttribute('content') || undefined;

if (CSP_NONCE) {
  (window as { __nonce__?: string }).__nonce__ = CSP_NONCE;
  // Webpack turns both into its runtime's nonce; outside a webpack build (Jest) there is none to set.
  if (typeof __webpack_nonce__ !== 'undefined') __webpack_nonce__ = CSP_NONCE;
}
