import { Service } from "herald";

/**
 * Declare it as a constructor parameter of an action, an initializer or another service and the
 * container passes it in; its own constructor parameters are injected the same way. `@Service()`
 * makes it one instance per server, so what it keeps is shared by every action of the app.
 */
@Service()
export class {{className}} {
  private readonly notes: string[] = [];

  /** Replace with the service's own work; it shows that state lasts from one call to the next. */
  remember(note: string): readonly string[] {
    this.notes.push(note);
    return [...this.notes];
  }
}
