/**
 * The import rules `npm run lint:deps` checks (docs/development/architecture.md#module-dependencies).
 *
 * A module is a folder: apps/server/src/modules/<name>, apps/web/src/features/<name>, and every
 * other top folder of a source tree (apps/server/src/lib, http, db, …; apps/web/src/components,
 * lib, app). Imports between modules go one way only.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-file-circle',
      severity: 'error',
      comment:
        'A file imports, through some chain, a file that imports it back (type-only imports count).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-module-circle',
      severity: 'error',
      comment:
        'A folder imports a folder that imports it back. Move the shared piece to the module it ' +
        'belongs to or to a shared place (server lib, web components or lib, packages/contract), ' +
        'or turn the dependency around (hand in a function or an object).',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    // Type-only imports count: a circle of types is still a circle between modules.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
