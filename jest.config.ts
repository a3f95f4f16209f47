import type { Config } from "jest";

type ProjectConfig = Exclude<NonNullable<Config["projects"]>[number], string>;

const shared: ProjectConfig = {
  // Jest's Node environment, with Node's fetch dispatcher on the test's global object (see the file).
  testEnvironment: "<rootDir>/test/support/node-environment.cjs",
  roots: ["<rootDir>/test"],
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/fixtures/"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.json" }],
    // jose and oidc-provider are ES modules only, which Node `require()`s but Jest's module loader cannot: compiled to CommonJS for the tests.
    "^.+/node_modules/(jose|oidc-provider)/.+\\.js$": ["ts-jest", { tsconfig: { allowJs: true, module: "commonjs", target: "es2022" }, isolatedModules: true }],
  },
  transformIgnorePatterns: ["/node_modules/(?!(jose|oidc-provider)/)"],
  moduleNameMapper: {
    "^herald$": "<rootDir>/src/index.ts",
    "^herald/testing$": "<rootDir>/src/testing/index.ts",
    "^herald/toolchain$": "<rootDir>/src/toolchain/index.ts",
    "^herald/client$": "<rootDir>/src/client/index.ts",
    // herald/client's modules import each other as "./name.js", as browsers load its ES build.
    "^(\\./.*)\\.js$": "$1",
  },
  setupFiles: ["reflect-metadata"],
};

const config: Config = {
  projects: [
    { ...shared, displayName: "herald", testMatch: ["**/*.test.ts"] },
  ],
  globalSetup: "<rootDir>/test/support/global-setup.ts",
  testTimeout: 30_000,
  reporters: ["default", "<rootDir>/test/support/summary-reporter.cjs"],
};

export default config;
