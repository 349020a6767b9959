import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bench/*.mjs'] },
        tsconfigRootDir: import.meta.dirname
      }
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-control-regex': 'off',
      // Destructuring a property away (`const { unsure, ...rest } = request`) is how a copy without it is made.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }]
    }
  },
  {
    // Test servers answer with one-line arrows such as `(req, res) => res.writeHead(503).end()`.
    files: ['test/**', 'sim/**'],
    rules: { '@typescript-eslint/no-confusing-void-expression': 'off' }
  },
  { files: ['*.js', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] }
)
