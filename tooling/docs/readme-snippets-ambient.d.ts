// Third-party modules a README outline imports that the workspace does not install: just the
// part of their API the outlines use, as the modules declare it, so the check stays about
// statemcp's API. Add a module here only when installing it would cost more than it checks.
declare module '@opentelemetry/api' {
  /** An OpenTelemetry context (opaque here). */
  export interface Context {
    readonly __context: unique symbol;
  }
  export const context: { active(): Context };
  export const propagation: { inject<Carrier>(context: Context, carrier: Carrier): void };
}
