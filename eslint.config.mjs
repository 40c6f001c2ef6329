// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import vitest from '@vitest/eslint-plugin';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', '**/*.js', '**/*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name=/^(it|describe|test)$/][callee.property.name='only']", message: 'No focused tests.' },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    plugins: { vitest },
    rules: {
      ...vitest.configs.recommended.rules,
      'vitest/expect-expect': [
        'error',
        {
          // Our assertion helpers: expectNo5xx, expectErrorShape, ...; property tests (fast-check fails
          // the test when a property returns false); supertest's `.expect(status, body)`; the fuzz
          // suite's per-route driver, which asserts on every request it sends.
          assertFunctionNames: ['expect', 'expect*', 'fc.assert', '**.expect', 'fuzzRoute'],
        },
      ],
      // A suite named from data (the golden cases' groups) is a string at run time.
      'vitest/valid-title': ['error', { ignoreTypeOfDescribeName: true }],
    },
  },
);
