'use strict'

const js = require('@eslint/js')
const globals = require('globals')

module.exports = [
  { ignores: ['node_modules/', 'results/', 'test-results/', 'docs/', '.cache/'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'commonjs', globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { args: 'none' }],
      // Long lines hide in review; strings, templates and regexps are exempt because breaking them changes what they say.
      'max-len': ['error', { code: 160, comments: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true }]
    }
  },
  {
    files: ['client/**/*.js', 'shared/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, $: 'readonly', jQuery: 'readonly' } }
  },
  {
    files: ['test/**/*.js'],
    languageOptions: { globals: { ...globals.mocha } }
  },
  {
    // Functions passed to page.evaluate() run in the browser.
    files: ['test/**/slow/**/*.js', 'bench/**/*.js'],
    languageOptions: { globals: { ...globals.mocha, ...globals.browser } }
  }
]
