// Third-party modules a README outline imports that the workspace does not install: just the
// part of their API the outlines use, as the modules declare it, so the check stays about
// statemcp's API. Add a module here only when installing it would cost more than it checks.
// (`@opentelemetry/api` is installed now, for @statemcp/opentelemetry: outlines use the real one.)
export {};
