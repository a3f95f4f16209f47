const { TestEnvironment } = require("jest-environment-node");

/** Where Node's fetch (undici) keeps its dispatcher, on the global object of the process. */
const DISPATCHERS = [Symbol.for("undici.globalDispatcher.1"), Symbol.for("undici.globalDispatcher.2")];

/**
 * Jest's Node environment with Node's fetch dispatcher on the test's global object, as every
 * Node process has it: the sandbox copies fetch but not the symbols beside it, and oidc-provider
 * builds the dispatcher that guards its outgoing requests from the one it finds there.
 */
class NodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    // Reading Response makes Node load undici, which sets its dispatcher.
    void globalThis.Response;
    for (const symbol of DISPATCHERS) if (globalThis[symbol] !== undefined) this.global[symbol] = globalThis[symbol];
  }
}

module.exports = NodeEnvironment;
