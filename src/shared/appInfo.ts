declare const __APP_VERSION__: string | undefined;

/** This platform: its name, its own version (from package.json, set by the build) and the GZCTF release it speaks. */
export const APP_NAME = 'GZCTF-TS';
export const APP_VERSION = typeof __APP_VERSION__ === 'undefined' ? '0.0.0-dev' : __APP_VERSION__;
export const GZCTF_COMPATIBLE_VERSION = '1.4.0';
