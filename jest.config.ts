import type { Config } from "jest";

const config: Config = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/fixtures/"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.json" }],
  },
  moduleNameMapper: {
    "^herald$": "<rootDir>/src/index.ts",
    "^herald/testing$": "<rootDir>/src/testing/index.ts",
    "^herald/client$": "<rootDir>/src/client/index.ts",
    // herald/client's modules import each other as "./name.js", as browsers load its ES build.
    "^(\\./.*)\\.js$": "$1",
  },
  setupFiles: ["reflect-metadata"],
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  testTimeout: 30_000,
  reporters: ["default", "<rootDir>/test/support/summary-reporter.cjs"],
};

export default config;
