// Lint: typescript-eslint's strict, type-checked rules over every TypeScript file (server, workspaces, tests,
// benches, console); formatting is Prettier's alone (`npm run format`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // AssemblyScript (packages/skill-package/assembly) is TypeScript's syntax over WebAssembly's types (u8, usize…):
  // its compiler, asc, type-checks it in the build; Prettier formats it.
  { ignores: ['**/dist/', '**/node_modules/', '**/wasm/', 'packages/skill-package/assembly/', 'data/', 'bench/results/', 'test-results/'] },
  // The held-out scanner samples (bench/scan-heldout) are package contents kept byte for byte, not code of this project.
  { ignores: ['bench/scan-heldout/samples/'] },
  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  {
    rules: {
      // With noUncheckedIndexedAccess every index is `T | undefined`; `!` after a bounds check is the plain way to say so.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A no-op callback (a silent progress reporter, a warning sink) is a deliberate value, not a forgotten body.
      '@typescript-eslint/no-empty-function': 'off',
      // Limits count code points, so `[...text].length` is meant wherever it appears.
      '@typescript-eslint/no-misused-spread': 'off',
      // Destructuring to leave properties out (`const { secret: _secret, ...shown } = row`) names them with `_`.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // An empty string (HOME="", an unset header) should fall back like a missing one: `||` says so for strings.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
      // Optional properties accept undefined (exactOptionalPropertyTypes is off): `{ x }` says what
      // `...(x !== undefined ? { x } : {})` does.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "SpreadElement > ConditionalExpression[test.operator='!=='][test.right.type='Identifier'][test.right.name='undefined'][alternate.type='ObjectExpression']",
          message: 'Pass the optional property as it is: an undefined value is the same as an absent one here.',
        },
      ],
      // Numbers and booleans read well in messages; objects, nullish values and unknowns are still refused.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's describe/test return promises the runner itself awaits.
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['describe', 'suite', 'it', 'test', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
    },
  },
  {
    // Fastify plugins are async functions (or take a callback); a route module that only declares routes awaits nothing.
    files: ['src/http/routes/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
