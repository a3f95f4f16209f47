// ts-jest compiles with the TypeScript compiler, which keeps the decorator metadata that
// constructor injection needs (esbuild-based transforms drop it).
/** @type {import("jest").Config} */
module.exports = {
  testEnvironment: "node",
  testMatch: ["<rootDir>/test/**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.json" }] },
};
