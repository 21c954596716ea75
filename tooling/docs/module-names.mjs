// A TypeDoc plugin of ours: names each entry module after its import path. TypeDoc calls the module of
// packages/http-transport/src/express/index.ts "http-transport/src/express"; users import it as
// "@statemcp/http-transport/express", so that is the name the reference shows.
import { Converter } from 'typedoc';

/**
 * `http-transport/src/express` → `@statemcp/http-transport/express`; `create-statemcp/src` →
 * `create-statemcp` (the one package outside the scope); other names unchanged.
 */
export function importPathOf(moduleName) {
  const match = /^([a-z0-9-]+)\/src(\/.+)?$/.exec(moduleName);
  if (match === null) return moduleName;
  return `${match[1] === 'create-statemcp' ? '' : '@statemcp/'}${match[1]}${match[2] ?? ''}`;
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.children ?? []) module.name = importPathOf(module.name);
  });
}
