import { injectable } from "herald";

/**
 * Declare it as a constructor parameter of an action, an initializer or another service and the
 * container passes it in; its own constructor parameters are injected the same way.
 */
@injectable()
export class {{className}} {}
