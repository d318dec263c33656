import type { Config } from 'jest';

/** Client unit and component tests (jsdom + msw). Server, contract and browser suites use node:test. */
const config: Config = {
  rootDir: __dirname,
  roots: ['<rootDir>/tests/client'],
  testEnvironment: 'jest-fixed-jsdom',
  testEnvironmentOptions: { customExportConditions: [''] },
  setupFilesAfterEnv: ['<rootDir>/tests/client/setup.ts'],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
  transform: {
    '^.+\\.(m?js|tsx?)$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // msw 2 pulls in ESM-only helpers, and marked ships only ESM; compile them to CJS like our own code (stack-notes §3).
  transformIgnorePatterns: ['/node_modules/(?!(@open-draft/deferred-promise|rettime|until-async|marked)/)'],
  testMatch: ['**/*.test.ts?(x)'],
};

export default config;
